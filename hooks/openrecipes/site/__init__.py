"""The site: every file the catalogue adds to an MkDocs build, and what each holds.

`plan` is the whole pipeline (`plan_site`): the catalogue in, the outputs out. `outputs` says
which files exist and checks them against each other; `pages` and `export` make the pages and the
data files (JSON, CSV, filters, feed via `feed`); `facts` is the registry of everything shown;
`render` turns templates into Markdown skeletons whose values are `fragments` rendered once
(`markup` for author text) and put back after MkDocs' conversion; `charts` writes the chart
figures; `csp` signs the scripts and makes the Content-Security-Policy; `htmlspace` trims the
theme's indentation; `urls` mirrors MkDocs' rules for where files go; `schemadoc` is the schema
as reference tables; `pieces` keeps text made from one recipe alone for reuse.
"""
