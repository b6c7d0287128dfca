#!/usr/bin/env python3
"""schema_check.py SCHEMA_MD DOC.json: validate DOC against the JSON
Schema held in the first ```json block of SCHEMA_MD (a markdown contract
such as docs/alerts.md).  The subset of JSON Schema the project's
contracts use: type (a name or a list), enum, required, properties, items.
Prints one line per violation; exit 0 valid, 1 invalid, 2 unreadable."""
import json
import re
import sys

TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def check(schema, v, path, out):
    t = schema.get("type")
    if t is not None:
        names = t if isinstance(t, list) else [t]
        if not any(TYPES[n](v) for n in names):
            out.append("%s: %r is not of type %s" % (path, v, "/".join(names)))
            return
    if "enum" in schema and v not in schema["enum"]:
        out.append("%s: %r is not one of %r" % (path, v, schema["enum"]))
    if isinstance(v, dict):
        for k in schema.get("required", []):
            if k not in v:
                out.append("%s: missing key %r" % (path, k))
        for k, sub in schema.get("properties", {}).items():
            if k in v:
                check(sub, v[k], "%s.%s" % (path, k), out)
    if isinstance(v, list) and "items" in schema:
        for i, x in enumerate(v):
            check(schema["items"], x, "%s[%d]" % (path, i), out)


def main():
    try:
        md = open(sys.argv[1], encoding="utf-8").read()
        block = re.search(r"```json\n(.*?)\n```", md, re.S)
        schema = json.loads(block.group(1))
        doc = json.load(open(sys.argv[2], encoding="utf-8"))
    except (OSError, ValueError, AttributeError, IndexError) as e:
        print("schema_check: %s" % e)
        return 2
    out = []
    check(schema, doc, "$", out)
    for line in out:
        print(line)
    return 1 if out else 0


sys.exit(main())
