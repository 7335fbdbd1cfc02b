"""The OpenVINO graph of an EAGLE-3 head, built op by op from numpy weights (no PyTorch).

It is the graph optimum-intel's export gives for ``LlamaForCausalLMEagle3`` (its model_patcher's
LlamaEagle3ForCausalLM traced, then made stateful), with the same parameter, output, variable and node names
wherever OpenVINO GenAI looks at them:

- parameters ``input_ids``, ``hidden_states`` (the target's three concatenated hidden states), ``attention_mask``,
  ``position_ids``, ``beam_idx``; outputs ``logits`` and ``d2t``; KV state in variables
  ``past_key_values.0.keypresent.0.key`` / ``…value`` (ReadValue → Gather by beam_idx → Concat → Assign);
- GenAI swaps in the target's embedding by finding the Gather whose data node is named ``…embed_tokens…``,
  moves ``fc`` into the target by finding the MatMul fed straight by the ``hidden_states`` parameter,
  reads the d2t map from the Result fed by a Constant named ``…d2t…``, takes the draft's own hidden state
  from the MLP residual Add named ``…midlayer…`` (input 1 a MatMul of a Multiply), and adds its tree mask to
  the ScaledDotProductAttention's mask input — so those nodes are built, and named, the same way.

Forward pass (per token): h = fc(hidden_states); e = embed(input_ids);
x = cat(input_layernorm(e), hidden_norm(h)); h = h + o_proj(attn(x)); h = h + mlp(post_attention_layernorm(h));
logits = lm_head(norm(h)).
"""

from __future__ import annotations

import numpy as np
import openvino as ov
import openvino.opset13 as ops

from eagle_chat.core.acquisition.eagle3_weights import HeadConfig, HeadFormatError

ATTN = "__module.model.midlayer.self_attn"
MIDLAYER = "__module.model.midlayer"
KEY_VARIABLE = "past_key_values.0.keypresent.0.key"
VALUE_VARIABLE = "past_key_values.0.valuepresent.0.value"
MASK_MIN = float(np.finfo(np.float32).min)  # what torch's causal mask uses; f16 storage clamps it to -65504


def _i64(values) -> ov.Node:
    return ops.constant(np.array(values, dtype=np.int64))


def _named(node, name: str):
    node.set_friendly_name(name)
    return node


class _Builder:
    def __init__(self, config: HeadConfig, weights: dict[str, np.ndarray]):
        self.config, self.weights = config, weights

    def weight(self, name: str, shape: tuple[int, ...]) -> np.ndarray:
        value = self.weights.get(name)
        if value is None:
            raise HeadFormatError("The EAGLE-3 head has no tensor {name} (it has: {names}).", name=name,
                                  names=", ".join(sorted(self.weights)[:20]))
        if tuple(value.shape) != shape:
            raise HeadFormatError("The EAGLE-3 head's {name} has shape {found}; its config.json implies {shape}.",
                                  name=name, found=list(value.shape), shape=list(shape))
        return value

    def linear(self, x, module: str, name: str, rows: int, cols: int):
        weight = ops.constant(np.ascontiguousarray(self.weight(name, (rows, cols)), dtype=np.float32))
        weight.set_friendly_name(f"self.model.{module}._openvino_orig_weight")
        return _named(ops.matmul(x, weight, False, True), f"__module.model.{module}/ov_ext::linear/MatMul")

    def rms_norm(self, x, module: str):
        """LlamaRMSNorm as traced: w * (x * 1 / sqrt(mean(x^2) + eps)); the CPU plugin fuses this pattern."""
        h = self.config.hidden_size
        weight = ops.constant(self.weight(f"{module}.weight", (h,)).astype(np.float32).reshape(1, 1, h))
        prefix = f"__module.model.{module}"
        square = _named(ops.power(x, ops.constant(np.full((1, 1, 1), 2.0, np.float32))), f"{prefix}/aten::pow/Power")
        mean = _named(ops.reduce_mean(square, _i64([-1]), True), f"{prefix}/aten::mean/ReduceMean")
        eps = ops.constant(np.full((1, 1, 1), self.config.rms_norm_eps, np.float32))
        root = _named(ops.sqrt(_named(ops.add(mean, eps), f"{prefix}/aten::add/Add")), f"{prefix}/aten::rsqrt/Sqrt")
        inverse = _named(ops.divide(ops.constant(np.ones((1, 1, 1), np.float32)), root),
                         f"{prefix}/aten::rsqrt/Divide")
        scaled = _named(ops.multiply(x, inverse), f"{prefix}/aten::mul/Multiply")
        return _named(ops.multiply(weight, scaled), f"{prefix}/aten::mul/Multiply_1")

    def rope(self, position_ids):
        """cos and sin, [batch, 1, seq, head_dim], as LlamaRotaryEmbedding computes them."""
        inv_freq = ops.constant(self.config.inv_freq.reshape(1, -1, 1))
        positions = ops.convert(ops.unsqueeze(position_ids, _i64(1)), ov.Type.f32)
        freqs = _named(ops.matmul(inv_freq, positions, False, False), "__module.model.rotary_emb/aten::matmul/MatMul")
        freqs = ops.transpose(freqs, ops.constant(np.array([0, 2, 1], np.int32)))
        emb = _named(ops.concat([freqs, freqs], -1), "__module.model.rotary_emb/aten::cat/Concat")
        cos = ops.unsqueeze(_named(ops.cos(emb), "__module.model.rotary_emb/aten::cos/Cos"), _i64(1))
        sin = ops.unsqueeze(_named(ops.sin(emb), "__module.model.rotary_emb/aten::sin/Sin"), _i64(1))
        return cos, sin

    def rotate(self, x, cos, sin):
        """x * cos + rotate_half(x) * sin, rotate_half(x) = cat(-x[..., d/2:], x[..., :d/2])."""
        half = self.config.head_dim // 2
        upper = ops.slice(x, _i64([half]), _i64([np.iinfo(np.int64).max]), _i64([1]), _i64([3]))
        lower = ops.slice(x, _i64([0]), _i64([half]), _i64([1]), _i64([3]))
        rotated = ops.concat([ops.multiply(upper, ops.constant(np.float32(-1.0))), lower], -1)
        return ops.add(ops.multiply(x, cos), ops.multiply(rotated, sin))

    def heads(self, x, count: int, name: str):
        """[batch, seq, count * head_dim] -> [batch, count, seq, head_dim]."""
        shaped = _named(ops.reshape(x, _i64([0, 0, count, self.config.head_dim]), True), name)
        return ops.transpose(shaped, ops.constant(np.array([0, 2, 1, 3], np.int32)))

    def kv_state(self, name: str, variable_id: str, batch, beam_idx):
        c = self.config
        init = ops.broadcast(ops.constant(np.float32(0.0)),
                             ops.concat([batch, _i64([c.num_kv_heads]), _i64([0]), _i64([c.head_dim])], 0))
        info = ov.op.util.VariableInfo()
        info.data_shape = ov.PartialShape([-1, c.num_kv_heads, -1, c.head_dim])
        info.data_type = ov.Type.f32
        info.variable_id = variable_id
        variable = ov.op.util.Variable(info)
        read = ops.read_value(init, variable)
        past = ops.gather(read, beam_idx, _i64(0))
        return variable, past

    def expand_kv(self, kv, name: str):
        """Grouped-query attention: [b, kv_heads, s, d] -> [b, heads, s, d], as repeat_kv traces."""
        c = self.config
        groups = c.num_heads // c.num_kv_heads
        if groups == 1:
            return kv
        repeated = ops.broadcast(ops.unsqueeze(kv, _i64(2)), _i64([1, 1, groups, 1, 1]),
                                 broadcast_spec="BIDIRECTIONAL")
        return _named(ops.reshape(repeated, _i64([0, c.num_heads, -1, c.head_dim]), True), name)

    def mask(self, attention_mask, past_len, seq_len):
        """The additive causal + padding mask, [batch, 1, seq, past + seq]: 0 where seen, float min elsewhere."""
        total = ops.add(past_len, seq_len)
        query_pos = ops.range(past_len, total, _i64(1), ov.Type.i64)
        key_pos = ops.range(_i64(0), total, _i64(1), ov.Type.i64)
        causal = ops.less_equal(ops.unsqueeze(key_pos, _i64(0)), ops.unsqueeze(query_pos, _i64(1)))  # [q, kv]
        padding = ops.convert(ops.gather(attention_mask, key_pos, _i64(1)), ov.Type.boolean)  # [b, kv]
        seen = ops.logical_and(ops.unsqueeze(causal, _i64([0, 1])), ops.unsqueeze(padding, _i64([1, 2])))
        return _named(ops.select(seen, ops.constant(np.float32(0.0)), ops.constant(np.float32(MASK_MIN))),
                      "__module.model/aten::where/Select")


def build_model(config: HeadConfig, weights: dict[str, np.ndarray]) -> ov.Model:
    """The EAGLE-3 head as a stateful ov.Model in float32 (compress it before saving)."""
    c = config
    if c.num_heads % c.num_kv_heads or c.head_dim % 2:
        raise HeadFormatError("The EAGLE-3 head's attention shape ({heads} heads, {kv} key/value heads, head size "
                              "{dim}) is not one the converter builds.", heads=c.num_heads, kv=c.num_kv_heads,
                              dim=c.head_dim)
    b = _Builder(config, weights)
    h, q_size, kv_size = c.hidden_size, c.num_heads * c.head_dim, c.num_kv_heads * c.head_dim

    def param(name: str, kind, rank: int):
        node = ops.parameter(ov.PartialShape([-1] * rank), kind, name=name)
        node.output(0).set_names({name})
        return node

    input_ids = param("input_ids", ov.Type.i64, 2)
    hidden_states = param("hidden_states", ov.Type.f32, 3)
    attention_mask = param("attention_mask", ov.Type.i64, 2)
    position_ids = param("position_ids", ov.Type.i64, 2)
    beam_idx = param("beam_idx", ov.Type.i32, 1)

    embedding = _embedding(b, c)
    embedding.set_friendly_name("self.model.embed_tokens._openvino_orig_weight")
    tokens = ops.convert(input_ids, ov.Type.i32)
    embeds = _named(ops.gather(embedding, tokens, ops.constant(np.int32(0))),
                    "__module.model.embed_tokens/ov_ext::embedding/Gather")

    fused = b.linear(hidden_states, "fc", "fc.weight", h, 3 * c.target_hidden_size)
    x = _named(ops.concat([b.rms_norm(embeds, "midlayer.input_layernorm"), b.rms_norm(fused, "midlayer.hidden_norm")],
                          -1), f"{MIDLAYER}/aten::cat/Concat")

    batch = ops.gather(ops.shape_of(input_ids), _i64([0]), _i64(0))
    key_variable, past_key = b.kv_state("key", KEY_VARIABLE, batch, beam_idx)
    value_variable, past_value = b.kv_state("value", VALUE_VARIABLE, batch, beam_idx)

    cos, sin = b.rope(position_ids)
    q = b.rotate(b.heads(b.linear(x, "midlayer.self_attn.q_proj", "midlayer.self_attn.q_proj.weight", q_size, 2 * h),
                         c.num_heads, f"{ATTN}/aten::view/Reshape_2"), cos, sin)
    k = b.rotate(b.heads(b.linear(x, "midlayer.self_attn.k_proj", "midlayer.self_attn.k_proj.weight", kv_size, 2 * h),
                         c.num_kv_heads, f"{ATTN}/aten::view/Reshape_1"), cos, sin)
    v = b.heads(b.linear(x, "midlayer.self_attn.v_proj", "midlayer.self_attn.v_proj.weight", kv_size, 2 * h),
                c.num_kv_heads, f"{ATTN}/aten::view/Reshape")
    keys = _named(ops.concat([past_key, k], -2), f"{ATTN}/aten::cat/Concat_2")
    values = _named(ops.concat([past_value, v], -2), f"{ATTN}/aten::cat/Concat")
    assign_key, assign_value = ops.assign(keys, key_variable), ops.assign(values, value_variable)

    past_len = ops.gather(ops.shape_of(past_key), _i64(2), _i64(0))
    seq_len = ops.gather(ops.shape_of(x), _i64(1), _i64(0))
    mask = b.mask(attention_mask, past_len, seq_len)
    scale = ops.constant(np.float32(1.0 / np.sqrt(c.head_dim)))
    attended = _named(ops.scaled_dot_product_attention(
        q, b.expand_kv(keys, f"{ATTN}/aten::reshape/Reshape"), b.expand_kv(values, f"{ATTN}/aten::reshape/Reshape_1"),
        mask, scale, causal=False), f"{ATTN}/aten::scaled_dot_product_attention/ScaledDotProductAttention")
    attended = ops.reshape(ops.transpose(attended, ops.constant(np.array([0, 2, 1, 3], np.int32))),
                           _i64([0, 0, q_size]), True)
    after_attention = _named(ops.add(fused, b.linear(attended, "midlayer.self_attn.o_proj",
                                                     "midlayer.self_attn.o_proj.weight", h, q_size)),
                             f"{MIDLAYER}/aten::add/Add")

    normed = b.rms_norm(after_attention, "midlayer.post_attention_layernorm")
    gate = b.linear(normed, "midlayer.mlp.gate_proj", "midlayer.mlp.gate_proj.weight", c.intermediate_size, h)
    up = b.linear(normed, "midlayer.mlp.up_proj", "midlayer.mlp.up_proj.weight", c.intermediate_size, h)
    product = _named(ops.multiply(_named(ops.swish(gate), "__module.model.midlayer.mlp.act_fn/aten::silu/Swish"), up),
                     "__module.model.midlayer.mlp/aten::mul/Multiply")
    down = b.linear(product, "midlayer.mlp.down_proj", "midlayer.mlp.down_proj.weight", h, c.intermediate_size)
    hidden = _named(ops.add(after_attention, down), f"{MIDLAYER}/aten::add/Add_1")  # GenAI's draft hidden state

    logits = b.linear(b.rms_norm(hidden, "norm"), "lm_head", "lm_head.weight", c.draft_vocab_size, h)
    d2t = ops.constant(_d2t(weights, c))
    d2t.set_friendly_name("self.model.d2t")
    results = [ops.result(logits), ops.result(d2t)]
    results[0].output(0).set_names({"logits"})
    results[1].output(0).set_names({"d2t"})
    return ov.Model(results, [assign_key, assign_value],
                    [input_ids, hidden_states, attention_mask, position_ids, beam_idx], "Model0")


def _embedding(b: _Builder, c: HeadConfig):
    """The head's token embedding. Heads published without one (the EAGLE authors' Llama head) get zeros of
    the target's shape, broadcast at run time rather than stored: GenAI replaces the draft's embedding with
    the target's in every case (its share_vocabulary finds this node by its name)."""
    if "embed_tokens.weight" not in b.weights:
        return ops.broadcast(ops.constant(np.float32(0.0)), _i64([c.vocab_size, c.hidden_size]))
    return ops.constant(np.ascontiguousarray(b.weight("embed_tokens.weight", (c.vocab_size, c.hidden_size)),
                                             dtype=np.float32))


def _d2t(weights: dict[str, np.ndarray], c: HeadConfig) -> np.ndarray:
    """draft id -> target id offset (target = draft + d2t[draft]); the export's zeros when the head has none
    and the vocabularies are the same."""
    d2t = weights.get("d2t")
    if d2t is None:
        if c.draft_vocab_size != c.vocab_size:
            raise HeadFormatError("The EAGLE-3 head has a {draft}-token draft vocabulary but no d2t map to the "
                                  "target's {vocab} tokens.", draft=c.draft_vocab_size, vocab=c.vocab_size)
        return np.zeros(c.draft_vocab_size, np.int64)
    if d2t.shape != (c.draft_vocab_size,):
        raise HeadFormatError("The EAGLE-3 head's d2t has shape {found}; its config.json implies [{draft}].",
                              found=list(d2t.shape), draft=c.draft_vocab_size)
    return np.ascontiguousarray(d2t, dtype=np.int64)
