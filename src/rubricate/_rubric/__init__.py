"""Rubrics: the criteria that say what "done" looks like, and how each form of rubric is read."""
