"""The write pipeline's domain logic: plain functions over plain models, no Temporal, no I/O.

`stages` turns a request into a validated, normalised draft record (or a refusal);
`resolution` classifies the draft against what is stored and plans the commit.
"""
