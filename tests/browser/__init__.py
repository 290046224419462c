"""Browser tests: the built site driven in headless Chromium (a package, so its conftest has a name of its own)."""
