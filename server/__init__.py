"""Placeholder until the server issue lands."""
