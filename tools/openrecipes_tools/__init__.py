"""Tooling around the runtime package, never imported by it: the benchmark (`bench`, with
`tablebench` timing the home table in Chromium), synthetic catalogues (`synthetic`) for the
benchmark and the tests, and finding and starting Chromium (`chromium`) for both.

`./dev bench` runs the benchmark; the tests import the rest.
"""
