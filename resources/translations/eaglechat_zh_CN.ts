<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>core</name>
    <message>
        <source>&quot;current&quot; names message {current}, which the file does not have.</source>
        <translation>“current” 指向消息 {current}，但文件中没有这条消息。</translation>
    </message>
    <message>
        <source>&quot;made_with&quot; of message {place} is not an object.</source>
        <translation>消息 {place} 的 “made_with” 不是对象。</translation>
    </message>
    <message>
        <source>&quot;{key}&quot; of {where} is not a time.</source>
        <translation>{where} 的 “{key}” 不是时间。</translation>
    </message>
    <message>
        <source>&quot;{key}&quot; of {where} is not text.</source>
        <translation>{where} 的 “{key}” 不是文本。</translation>
    </message>
    <message>
        <source>--repeats must be at least 1.</source>
        <translation>--repeats 至少为 1。</translation>
    </message>
    <message>
        <source>A draft tree needs 1 &lt;= depth &lt;= assistant tokens ({num_assistant_tokens}) and a branching factor of at least 1 (got depth {tree_depth}, branching {branching_factor}).</source>
        <translation>草稿树要求 1 &lt;= 深度 &lt;= 草稿 token 数（{num_assistant_tokens}），且分支数至少为 1（当前深度 {tree_depth}，分支数 {branching_factor}）。</translation>
    </message>
    <message>
        <source>A draft tree needs depth and branching of at least 1 and at least as many draft tokens as its depth (got depth {depth}, {branching} branches, {candidates} tokens).</source>
        <translation>草稿树的深度和分支数至少为 1，草稿 token 数不能少于深度（当前深度 {depth}，{branching} 个分支，{candidates} 个 token）。</translation>
    </message>
    <message>
        <source>A draft-free reference pipeline needs a local model; the remote server has none.</source>
        <translation>不带草稿的参照管线需要本地模型；远程服务器上没有。</translation>
    </message>
    <message>
        <source>A file of {repo} arrived damaged ({error}) even after retries; it was not kept. Try again later or use another source.</source>
        <translation>{repo} 的一个文件在多次重试后仍然损坏（{error}），已丢弃。请稍后重试或换一个下载源。</translation>
    </message>
    <message>
        <source>A model named {name!r} is already registered. Choose another name (--name) or remove it first with `eagle-chat models remove {name}`.</source>
        <translation>已有名为 {name!r} 的模型。请换一个名称（--name），或先用 `eagle-chat models remove {name}` 删除它。</translation>
    </message>
    <message>
        <source>Cannot serve on {host}:{port}: {reason}. Choose another port.</source>
        <translation>无法在 {host}:{port} 上提供服务：{reason}。请换一个端口。</translation>
    </message>
    <message>
        <source>Could not download from {endpoint} ({type}: {error}). Check the network connection and the mirror setting, then start the download again — it resumes where it stopped.</source>
        <translation>无法从 {endpoint} 下载（{type}：{error}）。请检查网络连接和镜像设置，然后重新开始下载——会从中断处继续。</translation>
    </message>
    <message>
        <source>Could not reach the server at {base}: {error}. Check the URL and that it is running.</source>
        <translation>无法连接 {base} 上的服务器：{error}。请检查 URL，并确认服务器正在运行。</translation>
    </message>
    <message>
        <source>Downloading from Hugging Face needs the huggingface-hub package: {executable} -m pip install &apos;huggingface-hub&gt;=1.5,&lt;2&apos;</source>
        <translation>从 Hugging Face 下载需要 huggingface-hub 包：{executable} -m pip install &apos;huggingface-hub&gt;=1.5,&lt;2&apos;</translation>
    </message>
    <message>
        <source>Downloading from ModelScope needs the modelscope-hub package: {executable} -m pip install &apos;modelscope-hub&gt;=0.5&apos;</source>
        <translation>从 ModelScope 下载需要 modelscope-hub 包：{executable} -m pip install &apos;modelscope-hub&gt;=0.5&apos;</translation>
    </message>
    <message>
        <source>Downloading {repo} failed: {detail}</source>
        <translation>下载 {repo} 失败：{detail}</translation>
    </message>
    <message>
        <source>Exporting the EAGLE-3 draft to OpenVINO needs optimum-intel, which is not installed (missing: {missing}). Install it into the Python that runs EagleChat ({python}), CPU build of torch first:
  {python} -m pip install torch --index-url https://download.pytorch.org/whl/cpu
  {python} -m pip install &quot;eagle-chat[build-models]&quot;
then start the download again (finished downloads are kept).</source>
        <translation>将 EAGLE-3 草稿模型导出为 OpenVINO 格式需要 optimum-intel，但它尚未安装（缺少：{missing}）。请把它安装到运行 EagleChat 的 Python（{python}）中，先安装 CPU 版 torch：
  {python} -m pip install torch --index-url https://download.pytorch.org/whl/cpu
  {python} -m pip install &quot;eagle-chat[build-models]&quot;
然后重新开始下载（已完成的下载会保留）。</translation>
    </message>
    <message>
        <source>Exporting the draft with optimum-cli failed: {detail}</source>
        <translation>用 optimum-cli 导出草稿模型失败：{detail}</translation>
    </message>
    <message>
        <source>Generation failed on the server: {detail}</source>
        <translation>服务器端生成失败：{detail}</translation>
    </message>
    <message>
        <source>Generation failed while streaming: {error!r}</source>
        <translation>流式生成时失败：{error!r}</translation>
    </message>
    <message>
        <source>Generation failed: the connection to {base} broke ({error}).</source>
        <translation>生成失败：与 {base} 的连接已断开（{error}）。</translation>
    </message>
    <message>
        <source>Generation failed: {detail}</source>
        <translation>生成失败：{detail}</translation>
    </message>
    <message>
        <source>Max new tokens must be at least 1.</source>
        <translation>最大新 token 数至少为 1。</translation>
    </message>
    <message>
        <source>Message {place} follows message {parent}, which does not come before it.</source>
        <translation>消息 {place} 接在消息 {parent} 之后，但后者并不在它前面。</translation>
    </message>
    <message>
        <source>Message {place} has a missing or repeated &quot;id&quot;.</source>
        <translation>消息 {place} 缺少 “id” 或 “id” 重复。</translation>
    </message>
    <message>
        <source>Message {place} has an unknown role {role!r}.</source>
        <translation>消息 {place} 的角色 {role!r} 无法识别。</translation>
    </message>
    <message>
        <source>Message {place} has an unknown status {status!r}.</source>
        <translation>消息 {place} 的状态 {status!r} 无法识别。</translation>
    </message>
    <message>
        <source>Message {place} is not an object.</source>
        <translation>消息 {place} 不是对象。</translation>
    </message>
    <message>
        <source>No Intel GPU found (or its driver is not installed).</source>
        <translation>未找到 Intel GPU（或未安装其驱动程序）。</translation>
    </message>
    <message>
        <source>No Intel NPU found (Core Ultra processors have one; it needs the NPU driver).</source>
        <translation>未找到 Intel NPU（Core Ultra 处理器自带 NPU，需要安装 NPU 驱动程序）。</translation>
    </message>
    <message>
        <source>No model named {name!r} is registered, so there is nothing to remove.</source>
        <translation>没有名为 {name!r} 的已注册模型，无需删除。</translation>
    </message>
    <message>
        <source>No model named {name!r} is registered. Registered: {registered} (see `eagle-chat models list`).</source>
        <translation>没有名为 {name!r} 的已注册模型。已注册：{registered}（见 `eagle-chat models list`）。</translation>
    </message>
    <message>
        <source>No prompts to run.</source>
        <translation>没有可运行的提示词。</translation>
    </message>
    <message>
        <source>Not enough free disk space for {what}: it needs {needed} more in {folder}, but only {free} are free (EagleChat keeps {margin} spare). Free some space, or keep models on a larger disk with `--home DIR`.</source>
        <translation>磁盘空间不足，无法{what}：需要在 {folder} 中再占用 {needed}，但只剩 {free} 可用（EagleChat 会保留 {margin} 余量）。请释放一些空间，或用 `--home DIR` 把模型放到更大的磁盘上。</translation>
    </message>
    <message>
        <source>On the NPU a reply can be at most {limit} tokens: the models are compiled for a fixed length (MIN_RESPONSE_LEN {min_response_len}). Lower Max new tokens to {limit} or less.</source>
        <translation>在 NPU 上，一条回复最多 {limit} 个 token：模型按固定长度编译（MIN_RESPONSE_LEN {min_response_len}）。请把最大新 token 数降到 {limit} 或以下。</translation>
    </message>
    <message>
        <source>OpenVINO could not load {target_dir} on {device}: {detail}</source>
        <translation>OpenVINO 无法在 {device} 上加载 {target_dir}：{detail}</translation>
    </message>
    <message>
        <source>OpenVINO could not load {target_dir} with draft {draft_dir} on {device}: {detail}</source>
        <translation>OpenVINO 无法在 {device} 上加载 {target_dir} 和草稿模型 {draft_dir}：{detail}</translation>
    </message>
    <message>
        <source>OpenVINO reports no CPU device — the installation looks broken.</source>
        <translation>OpenVINO 没有报告任何 CPU 设备——安装似乎已损坏。</translation>
    </message>
    <message>
        <source>Sampling is not available while an EAGLE-3 draft is loaded: OpenVINO GenAI streams EAGLE-3 pipelines with greedy decoding only. Load the model without its draft to sample.</source>
        <translation>加载 EAGLE-3 草稿模型时无法采样：OpenVINO GenAI 的 EAGLE-3 管线只支持贪心解码的流式输出。如需采样，请不带草稿模型加载主模型。</translation>
    </message>
    <message>
        <source>Serving on {host} makes the API reachable from other machines; set an API key (--api-key) to do that, or serve on 127.0.0.1.</source>
        <translation>在 {host} 上提供服务会让其他机器也能访问 API；如要这样做，请设置 API 密钥（--api-key），否则请在 127.0.0.1 上提供服务。</translation>
    </message>
    <message>
        <source>Speculative decoding needs an EAGLE-3 draft model; choose a draft folder first.</source>
        <translation>投机解码需要 EAGLE-3 草稿模型；请先选择草稿模型文件夹。</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <source>Stopped. What was downloaded so far is kept; run the same download again to resume.</source>
        <translation>已停止。已下载的内容会保留；再次运行同一下载即可继续。</translation>
    </message>
    <message>
        <source>The API server did not start: {error}</source>
        <translation>API 服务器未能启动：{error}</translation>
    </message>
    <message>
        <source>The EAGLE-3 head in {head_dir} has no readable config.json ({error}).</source>
        <translation>{head_dir} 中的 EAGLE-3 草稿头没有可读取的 config.json（{error}）。</translation>
    </message>
    <message>
        <source>The NPU models were compiled for draft trees up to depth {max_depth}, {max_branching} branches and {max_tokens} draft tokens ({detail}). Choose fewer draft tokens or a smaller tree.</source>
        <translation>NPU 模型编译时的草稿树上限为深度 {max_depth}、{max_branching} 个分支、{max_tokens} 个草稿 token（{detail}）。请减少草稿 token 数或缩小草稿树。</translation>
    </message>
    <message>
        <source>The benchmark needs a draft model (--draft).</source>
        <translation>基准测试需要草稿模型（--draft）。</translation>
    </message>
    <message>
        <source>The download failed: {type}: {error}</source>
        <translation>下载失败：{type}：{error}</translation>
    </message>
    <message>
        <source>The download in {folder} has no manifest; it did not finish. Start it again.</source>
        <translation>{folder} 中的下载没有清单文件，说明它没有完成。请重新开始下载。</translation>
    </message>
    <message>
        <source>The download of {repo} did not finish. Start it again to resume.</source>
        <translation>{repo} 的下载没有完成。请重新开始，会从中断处继续。</translation>
    </message>
    <message>
        <source>The download was stopped; start it again to resume.</source>
        <translation>下载已停止；重新开始即可继续。</translation>
    </message>
    <message>
        <source>The draft in {head_dir} is not an EAGLE-3 head: its config.json names architectures {architectures} and model type {model_type!r}; EAGLE-3 heads are Llama-type ({eagle3}). Choose the head made for this model.</source>
        <translation>{head_dir} 中的草稿模型不是 EAGLE-3 草稿头：它的 config.json 中架构为 {architectures}，模型类型为 {model_type!r}；EAGLE-3 草稿头是 Llama 类型（{eagle3}）。请选择为该模型训练的草稿头。</translation>
    </message>
    <message>
        <source>The draft {draft} reads layers {bad}, which {target} ({layers} layers) does not have.</source>
        <translation>草稿模型 {draft} 读取第 {bad} 层，但 {target}（共 {layers} 层）没有这些层。</translation>
    </message>
    <message>
        <source>The draft {draft} uses a vocabulary of {draft_size} tokens but {target} has {target_size}. Draft and model must come from the same model family.</source>
        <translation>草稿模型 {draft} 的词表有 {draft_size} 个 token，而 {target} 有 {target_size} 个。草稿模型和主模型必须来自同一模型系列。</translation>
    </message>
    <message>
        <source>The draft {draft} was trained for a model with hidden size {draft_size}, but {target} has hidden size {target_size}. Use the EAGLE-3 head made for this model (for Qwen3-8B: AngelSlim/Qwen3-8B_eagle3).</source>
        <translation>草稿模型 {draft} 是为隐藏层大小 {draft_size} 的模型训练的，但 {target} 的隐藏层大小为 {target_size}。请使用为该模型训练的 EAGLE-3 草稿头（Qwen3-8B 对应 AngelSlim/Qwen3-8B_eagle3）。</translation>
    </message>
    <message>
        <source>The draft&apos;s proposals were never accepted in {replies} test replies ({drafted} drafted tokens), so it would only slow the model down. It is probably not the EAGLE-3 head made for this model, or hit OpenVINO GenAI&apos;s known zero-acceptance bug (openvino.genai #4425).</source>
        <translation>在 {replies} 次测试回复中，草稿模型的提议一次也没有被接受（共 {drafted} 个草稿 token），它只会拖慢主模型。它很可能不是为该模型训练的 EAGLE-3 草稿头，或者遇到了 OpenVINO GenAI 已知的零接受率问题（openvino.genai #4425）。</translation>
    </message>
    <message>
        <source>The exported draft cannot be used: {error}</source>
        <translation>导出的草稿模型无法使用：{error}</translation>
    </message>
    <message>
        <source>The file has no list of messages.</source>
        <translation>文件中没有消息列表。</translation>
    </message>
    <message>
        <source>The file is not valid JSON ({error}).</source>
        <translation>文件不是有效的 JSON（{error}）。</translation>
    </message>
    <message>
        <source>The hub listed a file with an unsafe name ({path!r}); the download stopped.</source>
        <translation>模型仓库列出了一个名称不安全的文件（{path!r}）；下载已停止。</translation>
    </message>
    <message>
        <source>The hub lists {path} of {repo} with two different sizes ({size:,} and {other_size:,}); try again later.</source>
        <translation>模型仓库为 {repo} 的 {path} 列出了两个不同的大小（{size:,} 和 {other_size:,}）；请稍后重试。</translation>
    </message>
    <message>
        <source>The message is empty; type something to send.</source>
        <translation>消息为空；请输入内容后再发送。</translation>
    </message>
    <message>
        <source>The model loaded but wrote nothing; the files look damaged.</source>
        <translation>模型已加载，但没有输出任何内容；文件似乎已损坏。</translation>
    </message>
    <message>
        <source>The number of assistant tokens must be between {lowest} and {highest} on {device} (got {k}).</source>
        <translation>在 {device} 上，草稿 token 数必须在 {lowest} 到 {highest} 之间（当前为 {k}）。</translation>
    </message>
    <message>
        <source>The repository {repo} (revision {revision}) was not found on {endpoint}. Check the name and the endpoint setting.</source>
        <translation>在 {endpoint} 上找不到仓库 {repo}（版本 {revision}）。请检查名称和端点设置。</translation>
    </message>
    <message>
        <source>The repository {repo} has no files to download.</source>
        <translation>仓库 {repo} 中没有可下载的文件。</translation>
    </message>
    <message>
        <source>The repository {repo} was not found on {endpoint}. Check the name (and the mirror setting), or log in with `hf auth login` if it is private.</source>
        <translation>在 {endpoint} 上找不到仓库 {repo}。请检查名称（以及镜像设置）；如果是私有仓库，请用 `hf auth login` 登录。</translation>
    </message>
    <message>
        <source>The server at {base} answered {status}: {detail}</source>
        <translation>{base} 上的服务器返回 {status}：{detail}</translation>
    </message>
    <message>
        <source>The server at {base} has no model &apos;{model}&apos;; it serves: {served}.</source>
        <translation>{base} 上的服务器没有模型 &apos;{model}&apos;；它提供：{served}。</translation>
    </message>
    <message>
        <source>The server at {base} lists no models; enter the model name.</source>
        <translation>{base} 上的服务器没有列出任何模型；请输入模型名称。</translation>
    </message>
    <message>
        <source>The server refused the request ({status}): {detail}</source>
        <translation>服务器拒绝了请求（{status}）：{detail}</translation>
    </message>
    <message>
        <source>The server sent more than the {size:,} bytes listed for {path}; try again later.</source>
        <translation>服务器发送的数据超过了 {path} 所列的 {size:,} 字节；请稍后重试。</translation>
    </message>
    <message>
        <source>The stats of message {place} cannot be read ({error}).</source>
        <translation>无法读取消息 {place} 的统计数据（{error}）。</translation>
    </message>
    <message>
        <source>The test run of the downloaded pair failed: {detail} The files are kept but not registered: register them anyway with `eagle-chat models import {target_dir} {draft_dir} --name {name}`, or delete them with `eagle-chat models remove {name}`.</source>
        <translation>下载的模型对试运行失败：{detail} 文件已保留但未注册：仍可用 `eagle-chat models import {target_dir} {draft_dir} --name {name}` 注册，或用 `eagle-chat models remove {name}` 删除。</translation>
    </message>
    <message>
        <source>The {role} file {path} is not a JSON object.</source>
        <translation>{role} 文件 {path} 不是 JSON 对象。</translation>
    </message>
    <message>
        <source>The {role} file {path} is not valid JSON ({error}).</source>
        <translation>{role} 文件 {path} 不是有效的 JSON（{error}）。</translation>
    </message>
    <message>
        <source>The {role} file {xml_path} is XML but not an OpenVINO model (IR).</source>
        <translation>{role} 文件 {xml_path} 是 XML，但不是 OpenVINO 模型（IR）。</translation>
    </message>
    <message>
        <source>The {role} file {xml_path} is damaged ({error}). Download or export the model again.</source>
        <translation>{role} 文件 {xml_path} 已损坏（{error}）。请重新下载或导出模型。</translation>
    </message>
    <message>
        <source>The {role} folder {parent} has no config.json; EagleChat and OpenVINO GenAI need it to pair a draft with its model. Copy it from the original model or export again.</source>
        <translation>{role} 文件夹 {parent} 中没有 config.json；EagleChat 和 OpenVINO GenAI 需要它来为主模型匹配草稿模型。请从原始模型复制，或重新导出。</translation>
    </message>
    <message>
        <source>The {role} folder {path} does not exist.</source>
        <translation>{role} 文件夹 {path} 不存在。</translation>
    </message>
    <message>
        <source>The {role} folder {path} has no {name}, so it is not an OpenVINO model. Export it with {command}</source>
        <translation>{role} 文件夹 {path} 中没有 {name}，因此它不是 OpenVINO 模型。请用以下命令导出：{command}</translation>
    </message>
    <message>
        <source>The {role} folder {path} has no {name}. Export the model with optimum-cli (it writes the tokenizer) or convert the tokenizer with `convert_tokenizer &lt;hf-model&gt; --with-detokenizer -o {path}`.</source>
        <translation>{role} 文件夹 {path} 中没有 {name}。请用 optimum-cli 导出模型（它会写出分词器），或用 `convert_tokenizer &lt;hf-model&gt; --with-detokenizer -o {path}` 转换分词器。</translation>
    </message>
    <message>
        <source>The {role} path {path} is a file; choose the folder that holds it.</source>
        <translation>{role} 路径 {path} 是一个文件；请选择包含它的文件夹。</translation>
    </message>
    <message>
        <source>The {role} weights {path} is empty. The download or export did not finish — download or export the model again.</source>
        <translation>{role} 权重 {path} 为空。下载或导出没有完成——请重新下载或导出模型。</translation>
    </message>
    <message>
        <source>The {role} weights {path} is missing. The download or export did not finish — download or export the model again.</source>
        <translation>{role} 权重 {path} 不存在。下载或导出没有完成——请重新下载或导出模型。</translation>
    </message>
    <message>
        <source>There is no catalog entry named {name!r}. Known entries: {known}.</source>
        <translation>目录中没有名为 {name!r} 的条目。已知条目：{known}。</translation>
    </message>
    <message>
        <source>This build of EagleChat cannot export EAGLE-3 drafts itself. Export the draft with a Python that has optimum-intel: {command} — then add the pair with `eagle-chat models import TARGET_DIR DRAFT_DIR`.</source>
        <translation>此版本的 EagleChat 无法自行导出 EAGLE-3 草稿模型。请用装有 optimum-intel 的 Python 导出草稿模型：{command}——然后用 `eagle-chat models import TARGET_DIR DRAFT_DIR` 添加模型对。</translation>
    </message>
    <message>
        <source>This conversation is {count} tokens long, more than the NPU&apos;s limit of {max_prompt_len} (MAX_PROMPT_LEN). Start a new conversation, shorten the message, or raise the limit in the settings (the model is then recompiled).</source>
        <translation>此对话长 {count} 个 token，超过了 NPU 的上限 {max_prompt_len}（MAX_PROMPT_LEN）。请开始新对话、缩短消息，或在设置中提高上限（模型随后会重新编译）。</translation>
    </message>
    <message>
        <source>This conversation is {count} tokens long; the model handles at most {max_context}. Start a new conversation or shorten the message.</source>
        <translation>此对话长 {count} 个 token；该模型最多处理 {max_context} 个。请开始新对话或缩短消息。</translation>
    </message>
    <message>
        <source>This conversation was exported by a newer EagleChat (format version {version}; this one reads {supported}). Update EagleChat to import it.</source>
        <translation>此对话由更新版本的 EagleChat 导出（格式版本 {version}；当前版本只能读取 {supported}）。请更新 EagleChat 后再导入。</translation>
    </message>
    <message>
        <source>This file is not an EagleChat conversation export (no &quot;format&quot;: &quot;{format}&quot;).</source>
        <translation>此文件不是 EagleChat 对话导出文件（没有 &quot;format&quot;: &quot;{format}&quot;）。</translation>
    </message>
    <message>
        <source>Unknown device {device!r}: choose one of {kinds}.</source>
        <translation>未知设备 {device!r}：请从 {kinds} 中选择。</translation>
    </message>
    <message>
        <source>Unknown device {kind!r}: choose one of {kinds}.</source>
        <translation>未知设备 {kind!r}：请从 {kinds} 中选择。</translation>
    </message>
    <message>
        <source>Unknown source {source!r}: choose one of {sources}.</source>
        <translation>未知下载源 {source!r}：请从 {sources} 中选择。</translation>
    </message>
    <message>
        <source>{kind} is not available here. {reason}</source>
        <translation>{kind} 在本机上不可用。{reason}</translation>
    </message>
    <message>
        <source>{name!r} cannot be a model name: use up to 80 characters without slashes or colons, not starting with a dot.</source>
        <translation>{name!r} 不能用作模型名称：最多 80 个字符，不能包含斜杠或冒号，也不能以点开头。</translation>
    </message>
    <message>
        <source>{name!r} is reserved for the bundled tiny models; choose another name.</source>
        <translation>{name!r} 保留给内置的微型模型；请换一个名称。</translation>
    </message>
    <message>
        <source>{names} of {repo} arrived damaged even after retries and were not kept. Try again later or use another source.</source>
        <translation>{repo} 的 {names} 在多次重试后仍然损坏，已丢弃。请稍后重试或换一个下载源。</translation>
    </message>
    <message>
        <source>{name} has {layers} layers; EAGLE-3 reads features from layers 2, N/2 and N-3, which needs at least {minimum}, unless the draft names its layers in rt_info &apos;hidden_layers_list&apos;.</source>
        <translation>{name} 有 {layers} 层；EAGLE-3 从第 2、N/2 和 N-3 层读取特征，至少需要 {minimum} 层，除非草稿模型在 rt_info 的 “hidden_layers_list” 中指定了层。</translation>
    </message>
    <message>
        <source>{pair_name} is already installed. Remove it first with `eagle-chat models remove {pair_name}` to download it again.</source>
        <translation>{pair_name} 已安装。如需重新下载，请先用 `eagle-chat models remove {pair_name}` 删除它。</translation>
    </message>
    <message>
        <source>{path} from {repo} has {size:,} bytes but the hub lists {listed:,}; the transfer was cut short or changed. Download the model again.</source>
        <translation>{repo} 的 {path} 有 {size:,} 字节，但模型仓库列出的是 {listed:,}；传输被中断或文件已变更。请重新下载模型。</translation>
    </message>
    <message>
        <source>{path} from {repo} is damaged: its {kind} is {actual}… but the hub lists {listed}…. The damaged copy was deleted; download the model again.</source>
        <translation>{repo} 的 {path} 已损坏：它的 {kind} 为 {actual}…，而模型仓库列出的是 {listed}…。损坏的副本已删除；请重新下载模型。</translation>
    </message>
    <message>
        <source>{path} from {repo} is missing or has the wrong size; download the model again.</source>
        <translation>{repo} 的 {path} 缺失或大小不对；请重新下载模型。</translation>
    </message>
    <message>
        <source>{path} from {repo} is missing; download the model again.</source>
        <translation>{repo} 的 {path} 缺失；请重新下载模型。</translation>
    </message>
    <message>
        <source>{path} from {repo} was not verified; download the model again.</source>
        <translation>{repo} 的 {path} 未通过校验；请重新下载模型。</translation>
    </message>
    <message>
        <source>{path} holds an EAGLE-3 draft head, not a full model. Choose it as the draft and pick the matching target model (for example an OpenVINO int4 Qwen3) as the model.</source>
        <translation>{path} 是 EAGLE-3 草稿头，不是完整模型。请把它选作草稿模型，并选择与之匹配的主模型（例如 OpenVINO int4 Qwen3）。</translation>
    </message>
    <message>
        <source>{path} is not an EAGLE-3 draft: its IR has no &apos;eagle3_mode&apos; marker and its config.json architectures are {architectures}. Export an EAGLE-3 head with {command}</source>
        <translation>{path} 不是 EAGLE-3 草稿模型：它的 IR 中没有 &apos;eagle3_mode&apos; 标记，config.json 中的架构为 {architectures}。请用以下命令导出 EAGLE-3 草稿头：{command}</translation>
    </message>
    <message>
        <source>{port} is not a port number (0–65535).</source>
        <translation>{port} 不是有效的端口号（0–65535）。</translation>
    </message>
    <message>
        <source>{repo} does not hold a usable OpenVINO EAGLE-3 draft. {error}</source>
        <translation>{repo} 中没有可用的 OpenVINO EAGLE-3 草稿模型。{error}</translation>
    </message>
    <message>
        <source>{repo} has no revision {revision!r} on {endpoint}.</source>
        <translation>{repo} 在 {endpoint} 上没有版本 {revision!r}。</translation>
    </message>
    <message>
        <source>{repo} is gated: accept its terms on the hub&apos;s web page, then log in with `hf auth login` and try again.</source>
        <translation>{repo} 需要授权：请在模型仓库网页上接受其条款，然后用 `hf auth login` 登录后重试。</translation>
    </message>
    <message>
        <source>{title} has no NPU build in the catalog (NPUs need OpenVINO&apos;s channel-wise int4 models, e.g. OpenVINO/Qwen3-8B-int4-cw-ov). Choose CPU or GPU, or add your own entry.</source>
        <translation>目录中没有 {title} 的 NPU 版本（NPU 需要 OpenVINO 的按通道 int4 模型，例如 OpenVINO/Qwen3-8B-int4-cw-ov）。请选择 CPU 或 GPU，或添加你自己的条目。</translation>
    </message>
    <message>
        <source>{title} is not available on {source}: the catalog names no {source} repository for its {part}.</source>
        <translation>{title} 在 {source} 上不可用：目录中没有为它的 {part} 指定 {source} 仓库。</translation>
    </message>
    <message>
        <source>{title} is not available on {source}: the catalog names no {source} repository for its {part}. Use {others} instead.</source>
        <translation>{title} 在 {source} 上不可用：目录中没有为它的 {part} 指定 {source} 仓库。请改用 {others}。</translation>
    </message>
    <message>
        <source>{title} is not complete ({steps}); it was not registered.</source>
        <translation>{title} 没有完成（{steps}），未注册。</translation>
    </message>
    <message>
        <source>{where} is not a JSON object.</source>
        <translation>{where} 不是 JSON 对象。</translation>
    </message>
    <message>
        <source>{where} must be OpenVINO IR (&quot;format&quot;: &quot;openvino&quot;): EagleChat exports only EAGLE-3 heads. Use an OpenVINO build of the model, e.g. from huggingface.co/OpenVINO.</source>
        <translation>{where} 必须是 OpenVINO IR（&quot;format&quot;: &quot;openvino&quot;）：EagleChat 只导出 EAGLE-3 草稿头。请使用该模型的 OpenVINO 版本，例如 huggingface.co/OpenVINO 上的模型。</translation>
    </message>
    <message>
        <source>{where} must be an object like {{&quot;hf&quot;: &quot;owner/name&quot;, &quot;bytes&quot;: 123}}.</source>
        <translation>{where} 必须是形如 {{&quot;hf&quot;: &quot;owner/name&quot;, &quot;bytes&quot;: 123}} 的对象。</translation>
    </message>
    <message>
        <source>{where} must name at least one repository as &quot;owner/name&quot; under &apos;hf&apos; or &apos;modelscope&apos;.</source>
        <translation>{where} 必须在 &apos;hf&apos; 或 &apos;modelscope&apos; 下至少指定一个 &quot;owner/name&quot; 形式的仓库。</translation>
    </message>
    <message>
        <source>{where} needs a &apos;name&apos; without spaces or slashes (for `models pull NAME`).</source>
        <translation>{where} 需要一个不含空格或斜杠的 &apos;name&apos;（用于 `models pull NAME`）。</translation>
    </message>
    <message>
        <source>{where}: &apos;bytes&apos; must be a whole number of bytes.</source>
        <translation>{where}：&apos;bytes&apos; 必须是整数字节数。</translation>
    </message>
    <message>
        <source>{where}: &apos;export&apos; keys are &apos;default&apos; and &apos;NPU&apos;, not {key!r}.</source>
        <translation>{where}：&apos;export&apos; 的键只能是 &apos;default&apos; 和 &apos;NPU&apos;，而不是 {key!r}。</translation>
    </message>
    <message>
        <source>{where}: &apos;export&apos; settings must be a JSON object.</source>
        <translation>{where}：&apos;export&apos; 设置必须是 JSON 对象。</translation>
    </message>
    <message>
        <source>{where}: &apos;format&apos; is &quot;openvino&quot; (the repository holds OpenVINO IR) or &quot;hf&quot; (a Hugging Face-format EAGLE-3 head, exported after the download).</source>
        <translation>{where}：&apos;format&apos; 可以是 &quot;openvino&quot;（仓库中是 OpenVINO IR）或 &quot;hf&quot;（Hugging Face 格式的 EAGLE-3 草稿头，下载后导出）。</translation>
    </message>
    <message>
        <source>{where}: &apos;revision&apos; maps a source to a branch, tag or commit.</source>
        <translation>{where}：&apos;revision&apos; 把下载源映射到分支、标签或提交。</translation>
    </message>
    <message>
        <source>{where}: &apos;start_k&apos; maps CPU/GPU/NPU to a number of draft tokens from 1 to 16.</source>
        <translation>{where}：&apos;start_k&apos; 把 CPU/GPU/NPU 映射到 1 到 16 之间的草稿 token 数。</translation>
    </message>
    <message>
        <source>{where}: unknown export settings {unknown}; use {known}.</source>
        <translation>{where}：未知的导出设置 {unknown}；可用的有 {known}。</translation>
    </message>
    <message>
        <source>{where}: weight_format must be one of {formats}.</source>
        <translation>{where}：weight_format 必须是 {formats} 之一。</translation>
    </message>
</context>
</TS>
