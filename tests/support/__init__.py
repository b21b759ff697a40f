"""Helpers the tests share (servers, clients, positions, browsers), imported as ``support.<name>``."""
