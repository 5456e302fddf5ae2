"""Placeholder until the client issue lands."""
