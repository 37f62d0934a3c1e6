"""python -m classikit: train, then evaluate."""
from .training import evaluate, loop


def main():
    loop.case_ok_batches_placed_once()
    evaluate.case_ok_logits_copied_once()


if __name__ == "__main__":
    main()
