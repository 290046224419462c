"""Checking: figures recomputed from a recipe and the reference data, and the rules they must meet.

`figures` holds what a check is made of (`Derived`, the recomputed figures; `Check`, one
comparison; `Context`, what every rule reads; the `@rule` registry and the tolerances); `derive`
recomputes the figures and runs every rule (`analyse`); `rules` declares each check;
`pricebasis` chooses the price each GPU type is ranked at; `flags` holds the warnings a page
shows beside its figures (a stale price, an old stack); `scriptinputs` finds what a launch
script needs from outside; `readiness` says whether a reader can run the recipe as it stands.
"""
