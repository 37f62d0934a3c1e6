"""python -m fitlab: train, then evaluate."""
from . import eval as evaluation
from . import train


def main():
    train.case_ok_data_placed_once()
    evaluation.case_ok_predictions_copied_once()


if __name__ == "__main__":
    main()
