"""Placeholder until the protocol issue lands."""
