"""Jobs over files: the pipeline and its worker pool, bench, the leaderboard, CodaLab,
significance, comparison, the error analysis, validation, conversion, presets and options."""
