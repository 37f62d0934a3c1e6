"""The scripts beside a package: the modules of its project's folder (``pyproject.toml``: ``project_folder``),
outside the package, that name it (``scripts/explore.py`` of ``bokit``). A library-style layout applies the
transforms there (``jax.jit(pick)``, ``pick`` a parameter the script fills with ``bokit.best_feasible``) and
nobody lints the script with the package, so the package's reach starts from the scripts' roots as well."""
import os

from .defaults import is_test_module, modules_naming


def scripts_beside(project):
    """The paths of the modules outside ``project``'s package, in its folder (``folder_files``, bounded as
    the package's files are), that have the package's name as a word: only they can import it. What
    the reach relies on is noted: the folder's listing and each outside module (one naming the package
    later matters)."""
    if not project.in_package:
        return []
    files = project.folder_files()
    project.reach_inputs.listed(files)
    inside = os.path.join(project.package, "")
    outside = [path for path in files if not str(path).startswith(inside) and not is_test_module(path)]
    for path in outside:
        project.reach_inputs.read(path)
    return [path for path, _ in modules_naming(project, project.package.name, outside)]
