"""A chat request's tool and output-format fields, checked: ``tools``, ``tool_choice``, ``parallel_tool_calls``,
``response_format``, and the messages that carry tool calls (assistant ``tool_calls``, ``tool`` results).

What they become (:class:`ToolUse`): the tool list for the chat template, whether the reply is parsed for
``<tool_call>`` blocks (``tool_choice`` ``none`` renders the tools but parses nothing), and a grammar
(:class:`~eagle_chat.core.generation.structured.Constraint`) where the request must be guaranteed:
``required`` or a named function (one call, or up to :data:`MAX_PARALLEL_CALLS` when parallel calls are
allowed), ``json_object`` and ``json_schema``. ``auto`` generates freely, so drafting works as in a chat.
A model whose chat template has no tools branch gets a 400 rather than GenAI's generic injected prompt.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from eagle_chat.core.generation.structured import Constraint, UnsupportedSchema, grammar
from eagle_chat.core.generation.tool_template import tools_text
from eagle_chat.core.serving.errors import ApiError, invalid
from eagle_chat.core.serving.fields import bool_field

MAX_TOOLS = 128  # OpenAI's limit
MAX_PARALLEL_CALLS = 8  # a grammar-guaranteed reply holds at most this many calls
NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
TOOL_FIELDS, FUNCTION_FIELDS = {"type", "function"}, {"name", "description", "parameters", "strict"}
# ``index`` and ``parsed_arguments``: the official SDK keeps them in a streamed reply it accumulated (its
# ChatCompletionStreamState, the .parse() helpers), and a client sends that message back as it is; ignored.
CALL_FIELDS, CALLED_FIELDS = {"id", "type", "function", "index"}, {"name", "arguments", "parsed_arguments"}
FORMAT_FIELDS = {"name", "description", "schema", "strict"}


@dataclass(frozen=True)
class ToolUse:
    """What a request's tool and format fields ask for."""

    tools: str | None = None  # the tool list for the chat template (JSON text)
    parse_calls: bool = False  # read <tool_call> blocks in the reply as tool calls
    parallel: bool = True
    constraint: Constraint | None = None  # the grammar the reply must follow
    schema: str | None = None  # response_format's JSON schema (JSON text): the output is validated against it
    json_output: bool = False  # response_format json_object / json_schema: the output must be JSON


def templates_refusal() -> ApiError:
    return ApiError(400, "This model's chat template cannot take tools (it has no tools branch), so tool "
                    "definitions, tool calls and tool results cannot be given to it the way it was trained. Load a "
                    "model whose chat template handles tools, or send the request without them.",
                    param="tools", code="tools_unsupported")


def tool_use(data: dict, supports_tools: bool, messages_have_tools: bool) -> ToolUse:
    """The tool and format fields of a chat body (``data``), checked; raises ApiError (400)."""
    functions = _tools(data.get("tools"))
    if (functions or messages_have_tools) and not supports_tools:
        raise templates_refusal()
    parallel = bool_field(data, "parallel_tool_calls", True)
    choice = _tool_choice(data.get("tool_choice"), functions)
    fmt = _response_format(data.get("response_format"))
    constraint = None
    if choice not in ("none", "auto"):
        if fmt is not None:
            raise invalid("A forced tool call (tool_choice required or a named function) and a JSON response_format "
                          "cannot both constrain one reply; send one of them.", param="response_format")
        chosen = [f for f in functions if choice == "required" or f["name"] == choice]
        offered = json.dumps([{"name": f["name"], "parameters": f.get("parameters")} for f in chosen], ensure_ascii=False)
        # a named function: exactly one call of it, then the end (as OpenAI's and vLLM's named choice)
        constraint = Constraint("tool_calls", offered, 1, MAX_PARALLEL_CALLS if parallel and choice == "required" else 1)
    elif fmt is not None:
        constraint = fmt
    if constraint is not None:
        try:
            grammar(constraint)  # refused here, with the reason, rather than by the engine
        except UnsupportedSchema as error:
            param = "tools" if constraint.kind == "tool_calls" else "response_format.json_schema.schema"
            raise invalid(f"This server cannot enforce that JSON schema: {error}.", param=param) from None
    return ToolUse(tools=tools_text([{"type": "function", "function": f} for f in functions]),
                   parse_calls=bool(functions) and choice != "none", parallel=parallel, constraint=constraint,
                   schema=fmt.schema if fmt is not None and fmt.kind == "json_schema" else None,
                   json_output=fmt is not None)


def tool_message(message: dict, where: str, content: str) -> dict:
    """A ``tool`` message as the chat template reads it."""
    call_id = message.get("tool_call_id")
    if not isinstance(call_id, str) or not call_id:
        raise invalid(f"{where}.tool_call_id is required in a tool message: the id of the call it answers.",
                      param=f"{where}.tool_call_id")
    return {"role": "tool", "tool_call_id": call_id, "content": content}


def assistant_calls(value: object, where: str) -> list[dict]:
    """An assistant message's ``tool_calls``, checked, as the chat template reads them."""
    if not isinstance(value, list):
        raise invalid(f"{where}.tool_calls must be a list of tool calls.", param=f"{where}.tool_calls")
    calls = []
    for j, call in enumerate(value):
        at = f"{where}.tool_calls[{j}]"
        if not isinstance(call, dict) or set(call) - CALL_FIELDS or call.get("type", "function") != "function":
            raise invalid(f"{at} must be {{\"id\", \"type\": \"function\", \"function\": {{\"name\", \"arguments\"}}}}.",
                          param=at)
        function = call.get("function")
        if not isinstance(function, dict) or set(function) - CALLED_FIELDS or not isinstance(function.get("name"), str) \
                or not isinstance(function.get("arguments"), str):
            raise invalid(f"{at}.function must hold a name and its arguments as a JSON string.", param=f"{at}.function")
        calls.append({"id": str(call.get("id") or f"call_{j}"), "type": "function",
                      "function": {"name": function["name"], "arguments": function["arguments"]}})
    return calls


def _tools(value: object) -> list[dict]:
    if value is None or value == []:
        return []
    if not isinstance(value, list) or len(value) > MAX_TOOLS:
        raise invalid(f"'tools' must be a list of at most {MAX_TOOLS} tools.", param="tools")
    functions, names = [], set()
    for i, tool in enumerate(value):
        at = f"tools[{i}]"
        if not isinstance(tool, dict) or set(tool) - TOOL_FIELDS or tool.get("type") != "function":
            raise invalid(f"{at} must be {{\"type\": \"function\", \"function\": {{…}}}} (only function tools are "
                          "supported).", param=at)
        function = tool.get("function")
        if not isinstance(function, dict) or set(function) - FUNCTION_FIELDS:
            extra = sorted(set(function) - FUNCTION_FIELDS) if isinstance(function, dict) else []
            raise invalid(f"{at}.function must be an object with name, description, parameters and strict"
                          + (f" (not {', '.join(extra)})." if extra else "."), param=f"{at}.function")
        name = function.get("name")
        if not isinstance(name, str) or not NAME.match(name):
            raise invalid(f"{at}.function.name must be 1 to 64 letters, digits, underscores or dashes.",
                          param=f"{at}.function.name")
        if name in names:
            raise invalid(f"{at}.function.name '{name}' is given twice.", param=f"{at}.function.name")
        names.add(name)
        if function.get("description") is not None and not isinstance(function["description"], str):
            raise invalid(f"{at}.function.description must be a string.", param=f"{at}.function.description")
        bool_field(function, "strict", None, where=f"{at}.function.")
        parameters = function.get("parameters")
        if parameters is not None:
            _check_schema(parameters, f"{at}.function.parameters")
        functions.append(function)
    return functions


def _tool_choice(value: object, functions: list[dict]) -> str:
    """"none", "auto", "required" or the name of the function to call."""
    if value is None:
        return "auto" if functions else "none"
    if value in ("none", "auto", "required"):
        if value == "required" and not functions:
            raise invalid("tool_choice 'required' needs 'tools'.", param="tool_choice")
        return value
    if isinstance(value, dict) and value.get("type") == "function" and isinstance(value.get("function"), dict) \
            and isinstance(value["function"].get("name"), str):
        name = value["function"]["name"]
        if name not in {f["name"] for f in functions}:
            raise invalid(f"tool_choice names the function '{name}', which is not in 'tools'.", param="tool_choice")
        return name
    raise invalid("tool_choice must be \"none\", \"auto\", \"required\" or {\"type\": \"function\", \"function\": "
                  "{\"name\": …}}.", param="tool_choice")


def _response_format(value: object) -> Constraint | None:
    if value is None or value == {"type": "text"}:
        return None
    kind = value.get("type") if isinstance(value, dict) else None
    if kind == "json_object" and isinstance(value, dict) and set(value) == {"type"}:
        return Constraint("json_object")
    if kind == "json_schema" and isinstance(value, dict) and set(value) == {"type", "json_schema"}:
        spec = value["json_schema"]
        if not isinstance(spec, dict) or set(spec) - FORMAT_FIELDS or not isinstance(spec.get("name"), str):
            raise invalid("response_format.json_schema must be {\"name\", \"schema\", \"strict\", \"description\"}.",
                          param="response_format.json_schema")
        bool_field(spec, "strict", None, where="response_format.json_schema.")
        schema = spec.get("schema", {})
        _check_schema(schema, "response_format.json_schema.schema")
        return Constraint("json_schema", json.dumps(schema, ensure_ascii=False))
    raise invalid("response_format must be {\"type\": \"text\"}, {\"type\": \"json_object\"} or {\"type\": "
                  "\"json_schema\", \"json_schema\": {…}}.", param="response_format")


def _check_schema(schema: object, param: str) -> None:
    import jsonschema

    if not isinstance(schema, (dict, bool)):
        raise invalid(f"'{param}' must be a JSON schema (an object).", param=param)
    try:
        jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator).check_schema(
            schema)  # type: ignore[arg-type, unused-ignore]  # true and false are schemas too; the stubs allow only dicts
    except jsonschema.SchemaError as error:
        raise invalid(f"'{param}' is not a valid JSON schema: {error.message}.", param=param) from None


def output_error(content: str, schema: str | None) -> ApiError | None:
    """A JSON response_format's output checked before it is returned: not JSON, or not matching the schema, is
    a 500 (the grammar should have made it impossible; the reply is not passed off as valid)."""
    import jsonschema

    try:
        value = json.loads(content)
    except ValueError as error:
        problem: str | None = f"it is not JSON ({error})"
    else:
        if schema is None:
            problem = None if isinstance(value, dict) else "it is not a JSON object"
        else:
            found = jsonschema.validators.validator_for(json.loads(schema), default=jsonschema.Draft202012Validator)(
                json.loads(schema)).iter_errors(value)
            first = next(iter(sorted(found, key=lambda e: list(e.path))), None)
            problem = None if first is None else f"it does not match the schema at {first.json_path}: {first.message}"
    if problem is None:
        return None
    return ApiError(500, f"The model's output does not follow the requested response_format: {problem}.",
                    type="server_error", code="invalid_model_output")
