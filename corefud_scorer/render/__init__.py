"""Renderers: scorer 1.2's text, JSON, tables, the leaderboard, CodaLab's files, the error
analysis and plots."""
