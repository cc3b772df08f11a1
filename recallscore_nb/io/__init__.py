"""Reading, validating and writing files: the edge between the disk and the core. JSON documents
and their JSON Schemas, benchmarks, items, scoring schemas, the suite catalogue, attempts files
(and those that name their systems, checked for the analyses that compare systems), scored
tables, SQuAD files, audited reports, the Dask engine's datasets, where the package data
lives, atomic writes and the one file hash belong here. A module here imports only ``core``: it
turns files into the core's values and values into files, naming the file, row or JSON path
and field of every fault.
"""
