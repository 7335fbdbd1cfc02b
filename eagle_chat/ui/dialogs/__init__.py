"""Dialogs opened from the main window (each one a self-contained feature)."""
