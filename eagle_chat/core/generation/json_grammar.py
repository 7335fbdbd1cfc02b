"""A JSON schema as an EBNF grammar (xgrammar's dialect, which GenAI's structured output compiles) that bounds
whitespace: at most one space after each ``,`` and ``:``, none anywhere else.

GenAI 2026.4.1 hands a JSON schema to xgrammar's converter with its default ``any_whitespace``: any run of
spaces and newlines between tokens, and a small model pads with whitespace until max_tokens runs out (seen
on the tiny pair). Neither the schema nor the structural-tag form takes a whitespace limit in the xgrammar
GenAI builds with, so the grammar is written here. One optional space keeps the style models are trained on
(Qwen3's tool calls are ``{"name": "f", "arguments": {"a": 1}}``) and bounds the run.

What is enforced: ``type`` (one or a list), ``properties`` / ``required`` (in the schema's order; properties
not listed are not generated), ``items``, ``minItems`` / ``maxItems``, ``minLength`` / ``maxLength``, ``enum``,
``const``, ``anyOf`` / ``oneOf`` (as alternatives), a one-element ``allOf``, ``$ref`` into ``$defs`` /
``definitions`` (recursion included), ``true`` / ``{}`` (any value). Value checks a grammar cannot easily
express (``pattern``, ``format``, ``minimum`` …) are left to the schema validation the caller runs on the
output; keywords that change the structure in ways not written here are refused (:class:`UnsupportedSchema`).
Numbers have at most 16 digits before and after the point (a bound, not JSON's).
"""

from __future__ import annotations

import json

_STRUCTURAL = {"not", "if", "then", "else", "patternProperties", "dependentSchemas", "prefixItems",
               "unevaluatedProperties", "unevaluatedItems", "propertyNames", "contains", "dependentRequired"}
BASE_RULES = r'''
ws_sep ::= "," " "?
ws_colon ::= ":" " "?
json_char ::= [^"\\\x00-\x1f] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F]{4})
json_string ::= "\"" json_char* "\""
json_integer ::= "-"? ("0" | [1-9] [0-9]{0,15})
json_number ::= json_integer ("." [0-9]{1,16})? ([eE] [-+]? [0-9]{1,3})?
json_boolean ::= "true" | "false"
json_null ::= "null"
json_value ::= json_object | json_array | json_string | json_number | json_boolean | json_null
json_member ::= json_string ws_colon json_value
json_object ::= "{" (json_member (ws_sep json_member)*)? "}"
json_array ::= "[" (json_value (ws_sep json_value)*)? "]"
'''.strip()


class UnsupportedSchema(ValueError):
    """The schema uses something this converter does not enforce; the message names it."""


def literal(text: str) -> str:
    """``text`` as an EBNF string literal."""
    return json.dumps(text, ensure_ascii=False)


class GrammarBuilder:
    """Collects rules; :meth:`schema_rule` names the rule for a schema, writing it (and what it needs) once."""

    def __init__(self):
        self.rules: dict[str, str] = {}
        self._root: object = None
        self._refs: dict[str, str] = {}
        self._count = 0

    def ebnf(self, root: str) -> str:
        """The whole grammar with ``root`` (an EBNF expression) as its start."""
        return "\n".join([f"root ::= {root}", BASE_RULES, *(f"{n} ::= {body}" for n, body in self.rules.items())])

    def schema_rule(self, schema: object, root: object = None) -> str:
        """The name of a rule matching JSON documents that ``schema`` describes (compact, bounded whitespace)."""
        if root is not None:
            self._root = root
        if schema is True or schema == {}:
            return "json_value"
        if not isinstance(schema, dict):
            raise UnsupportedSchema("a schema must be an object or true")
        used = sorted(_STRUCTURAL & set(schema))
        if used:
            raise UnsupportedSchema(f"the keyword {used[0]!r} is not supported")
        if "$ref" in schema:
            return self._ref(schema["$ref"])
        if "const" in schema:
            return self._add(literal(_compact(schema["const"])))
        if "enum" in schema:
            values = schema["enum"]
            if not isinstance(values, list) or not values:
                raise UnsupportedSchema("'enum' must be a non-empty list")
            return self._add(" | ".join(literal(_compact(v)) for v in values))
        for key in ("anyOf", "oneOf"):
            if key in schema:
                return self._add(" | ".join(self.schema_rule(s) for s in _list(schema[key], key)))
        if "allOf" in schema:
            parts = _list(schema["allOf"], "allOf")
            if len(parts) != 1:
                raise UnsupportedSchema("'allOf' with more than one schema is not supported")
            return self.schema_rule(parts[0])
        kind = schema.get("type")
        if kind is None:
            kind = "object" if "properties" in schema else "array" if "items" in schema else None
        if kind is None:
            return "json_value"
        if isinstance(kind, list):
            return self._add(" | ".join(self.schema_rule({**schema, "type": k}) for k in kind))
        return self._typed(kind, schema)

    def _typed(self, kind: str, schema: dict) -> str:
        if kind in ("string", "integer", "number", "boolean", "null"):
            if kind == "string" and ("minLength" in schema or "maxLength" in schema):
                low, high = int(schema.get("minLength", 0)), schema.get("maxLength")
                return self._add(f'"\\"" json_char{{{low},{"" if high is None else int(high)}}} "\\""')
            return f"json_{kind}"
        if kind == "array":
            item = self.schema_rule(schema.get("items", True))
            low, high = int(schema.get("minItems", 0)), schema.get("maxItems")
            if high is not None and int(high) == 0:
                return self._add('"[" "]"')
            more = f"(ws_sep {item}){{{max(0, low - 1)},{'' if high is None else int(high) - 1}}}"
            body = f'"[" {item} {more} "]"'
            return self._add(body if low > 0 else f'{body} | "[" "]"')
        if kind == "object":
            return self._object(schema)
        raise UnsupportedSchema(f"the type {kind!r} is not a JSON schema type")

    def _object(self, schema: dict) -> str:
        properties = schema.get("properties") or {}
        if not isinstance(properties, dict):
            raise UnsupportedSchema("'properties' must be an object")
        if not properties:
            return "json_object"
        required = set(schema.get("required") or ())
        members = [(f"{literal(json.dumps(name, ensure_ascii=False))} ws_colon {self.schema_rule(sub)}",
                    name in required) for name, sub in properties.items()]
        # tail(i): the members after the i-th, each behind a separator; start(i): the first present member is i
        # or a later one. Both built from the end; optional members may be left out.
        tail = '""'
        starts: list[str] = []
        for member, needed in reversed(members):
            start = f"{member} {tail}"
            if not needed:
                start = f"{start} | {starts[-1] if starts else chr(34) * 2}"
            starts.append(self._add(start))
            tail = self._add(f"ws_sep {member} {tail}" if needed else f"(ws_sep {member})? {tail}")
        return self._add(f'"{{" {starts[-1]} "}}"')

    def _ref(self, ref: object) -> str:
        if not isinstance(ref, str) or not ref.startswith("#/"):
            raise UnsupportedSchema("only local '$ref's (#/$defs/…) are supported")
        if ref not in self._refs:
            target = self._root
            for part in ref[2:].split("/"):
                part = part.replace("~1", "/").replace("~0", "~")
                if not isinstance(target, dict) or part not in target:
                    raise UnsupportedSchema(f"'$ref' {ref} points nowhere")
                target = target[part]
            self._count += 1
            name = self._refs[ref] = f"ref_{self._count}"
            self.rules[name] = '""'  # a placeholder while the target is written (it may refer back to itself)
            self.rules[name] = self.schema_rule(target)
        return self._refs[ref]

    def _add(self, body: str) -> str:
        self._count += 1
        name = f"r_{self._count}"
        self.rules[name] = body
        return name


def schema_grammar(schema: object) -> str:
    """The EBNF for one JSON document matching ``schema`` (``None``: any JSON object, OpenAI's json_object)."""
    builder = GrammarBuilder()
    return builder.ebnf("json_object" if schema is None else builder.schema_rule(schema, root=schema))


def _compact(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _list(value: object, key: str) -> list:
    if not isinstance(value, list) or not value:
        raise UnsupportedSchema(f"'{key}' must be a non-empty list")
    return value
