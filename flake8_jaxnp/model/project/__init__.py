"""Knowledge across the modules of one project, read from their source, never imported.

- ``modules``: the Project around a linted file: imports resolved to the project's
  files, their summaries, and the reach: which functions the project's traces reach,
  from which callers in other modules; ``package``: the package's files, and its reach
  kept on disk with what solving it relied on;
- ``summaries``: one module's summary, from its text alone; ``flows``: which
  parameters each call of a function passes on;
- ``records``: pytree classes and the shapes of jitted results;
- ``cache``: summaries and kept findings on disk, and the process's memory of both.
"""
from .modules import QUESTIONS, Project, answer, has_project, project_around

__all__ = ["QUESTIONS", "Project", "answer", "has_project", "project_around"]
