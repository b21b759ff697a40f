"""Balance studies: declared grids of configurations × seeds × games, played on Ray, kept as Parquet rows.

Needs the ``study`` extra (ray, pyarrow, matplotlib). See ``spots study --list``.
"""

from .spec import BUILTIN, Config, Study, StudyError, load_study, parse_study

__all__ = ["BUILTIN", "Config", "Study", "StudyError", "load_study", "parse_study"]
