"""Checking: figures recomputed from a recipe and the reference data, and the rules they must meet.

`checks` derives the figures (`Derived`: MFU, $ / 1M tokens, DP, the publisher's own figures in
their convention) and runs every `@rule` against them; `pricebasis` chooses the price each GPU
type is ranked at; `flags` holds the warnings a page shows beside its figures (a stale price, an
old stack); `scriptinputs` finds what a launch script needs from outside.
"""
