<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AboutDialog</name>
    <message>
        <source>About EagleChat</source>
        <translation>关于 EagleChat</translation>
    </message>
    <message>
        <source>Chat with local models on Intel hardware, made fast by OpenVINO GenAI&apos;s EAGLE-3 speculative decoding. Everything stays on this computer.</source>
        <translation>在 Intel 硬件上与本地模型聊天，由 OpenVINO GenAI 的 EAGLE-3 推测解码加速。所有内容都留在这台电脑上。</translation>
    </message>
    <message>
        <source>Versions:</source>
        <translation>版本：</translation>
    </message>
    <message>
        <source>Devices found:</source>
        <translation>找到的设备：</translation>
    </message>
    <message>
        <source>none (OpenVINO found no device)</source>
        <translation>无（OpenVINO 未找到任何设备）</translation>
    </message>
    <message>
        <source>Log folder:</source>
        <translation>日志文件夹：</translation>
    </message>
    <message>
        <source>Data folder:</source>
        <translation>数据文件夹：</translation>
    </message>
    <message>
        <source>Licenses</source>
        <translation>许可证</translation>
    </message>
    <message>
        <source>Copy details</source>
        <translation>复制详细信息</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>已复制</translation>
    </message>
    <message>
        <source>Open in the file manager</source>
        <translation>在文件管理器中打开</translation>
    </message>
</context>
<context>
    <name>AcceptanceChart</name>
    <message>
        <source>Acceptance chart</source>
        <translation>接受率图</translation>
    </message>
    <message>
        <source>Bars: how many verification steps accepted 0, 1, … K drafted tokens. Line: the share of steps whose drafted token at each draft position was accepted</source>
        <translation>柱：接受了 0、1、… K 个草稿 token 的验证步各有多少。线：在每个草稿位置上，草稿 token 被接受的验证步所占的比例</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>验证步数</translation>
    </message>
    <message>
        <source>accepted at this draft position</source>
        <translation>此草稿位置的接受率</translation>
    </message>
    <message>
        <source>tokens accepted (bars) · draft position (line)</source>
        <translation>接受的 token 数（柱）· 草稿位置（线）</translation>
    </message>
</context>
<context>
    <name>AgentLoop</name>
    <message>
        <source>Tool use</source>
        <translation>工具调用</translation>
    </message>
    <message>
        <source>Tool use modes</source>
        <translation>工具使用模式</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>Required</source>
        <translation>必须调用</translation>
    </message>
    <message>
        <source>Let the model call the tools of the MCP servers in mcp.json</source>
        <translation>让模型调用 mcp.json 中 MCP 服务器提供的工具</translation>
    </message>
    <message>
        <source>Starting tools… your message is sent once they are up.</source>
        <translation>正在启动工具……工具就绪后即发送您的消息。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Tool use is Required, but no tool is available (servers that failed to start: {failed}). Fix them in the Tools dialog, or set tool use to Auto or Off.</source>
        <translation>工具使用设为“必需”，但没有可用的工具（未能启动的服务器：{failed}）。请在“工具”对话框中修复它们，或将工具使用设为“自动”或“关闭”。</translation>
    </message>
    <message>
        <source>Allow a tool call?</source>
        <translation>允许调用工具吗？</translation>
    </message>
    <message>
        <source>The model wants to call {tool} on {server} with:

{arguments}</source>
        <translation>模型想要调用 {server} 上的 {tool}，参数为：

{arguments}</translation>
    </message>
    <message>
        <source>Allow once</source>
        <translation>仅允许这一次</translation>
    </message>
    <message>
        <source>Always for this tool</source>
        <translation>此工具始终允许</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>Stopped after {n} tool steps (the step limit).</source>
        <translation>已执行 {n} 个工具步骤后停止（步骤上限）。</translation>
    </message>
</context>
<context>
    <name>AttachBar</name>
    <message>
        <source>Attach files…</source>
        <translation>附加文件…</translation>
    </message>
    <message>
        <source>Add documents to this conversation (text, Markdown, code, HTML, PDF, DOCX): replies answer from them and cite them. You can also drop files on the window or paste their paths.</source>
        <translation>为此对话添加文档（文本、Markdown、代码、HTML、PDF、DOCX）：回复会根据这些文档作答并注明出处。也可以把文件拖到窗口上，或粘贴文件路径。</translation>
    </message>
    <message>
        <source>Library</source>
        <translation>资料库</translation>
    </message>
    <message>
        <source>Library…</source>
        <translation>资料库…</translation>
    </message>
    <message>
        <source>Folders indexed for every conversation: add, update, remove</source>
        <translation>为所有对话建立索引的文件夹：添加、更新、移除</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop indexing</source>
        <translation>停止建立索引</translation>
    </message>
    <message>
        <source>{path}
{n} passages indexed — click to remove it from this conversation</source>
        <translation>{path}
已索引 {n} 个段落 — 点击可将其从此对话中移除</translation>
    </message>
    <message>
        <source>Remove {name}</source>
        <translation>移除 {name}</translation>
    </message>
    <message numerus="yes">
        <source>Replies in this conversation also answer from the documents library (%n file(s))</source>
        <translation>
            <numerusform>此对话的回复也会根据文档资料库作答（%n 个文件）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>BranchActions</name>
    <message>
        <source>That message has a reply already: regenerate the reply.</source>
        <translation>这条消息已有回复：请重新生成该回复。</translation>
    </message>
    <message>
        <source>The message is empty; type something to send.</source>
        <translation>消息为空，请输入内容后再发送。</translation>
    </message>
    <message>
        <source>Only the last reply can be continued, and only if it was cut short.</source>
        <translation>只有最后一条回复可以继续，且仅限被截断的回复。</translation>
    </message>
    <message>
        <source>That message is not in the open conversation any more.</source>
        <translation>该消息已不在当前打开的对话中。</translation>
    </message>
    <message>
        <source>A reply is still being generated; stop it first.</source>
        <translation>仍在生成回复，请先停止。</translation>
    </message>
</context>
<context>
    <name>ChatController</name>
    <message>
        <source>Wait for the reply to finish (or stop it) before loading another model.</source>
        <translation>请等待回复完成（或停止回复）后再加载其他模型。</translation>
    </message>
    <message>
        <source>Wait for the reply to finish (or stop it) before unloading the model.</source>
        <translation>请等待回复完成（或停止它）后再卸载模型。</translation>
    </message>
</context>
<context>
    <name>ChatView</name>
    <message>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
</context>
<context>
    <name>CompareControls</name>
    <message>
        <source>Prompt to compare</source>
        <translation>要对比的提示词</translation>
    </message>
    <message>
        <source>× </source>
        <comment>before the number of runs per mode</comment>
        <translation>× </translation>
    </message>
    <message>
        <source>Runs per mode</source>
        <translation>每种模式的运行次数</translation>
    </message>
    <message>
        <source>Counted runs per mode, after an uncounted warm-up of each; the summary shows medians and min–max, and calls a difference only when the ranges do not overlap</source>
        <translation>每种模式计入结果的运行次数（每种模式先预热一次，不计入）；摘要显示中位数和最小–最大值，只有范围不重叠时才判定存在差异</translation>
    </message>
    <message>
        <source>Run comparison (F5)</source>
        <translation>运行对比 (F5)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Re-run at {precision}</source>
        <translation>以 {precision} 重新运行</translation>
    </message>
    <message>
        <source>Reload at {precision} precision, where greedy answers must be identical</source>
        <translation>以 {precision} 精度重新加载，此时贪心解码的回答必须完全相同</translation>
    </message>
    <message>
        <source>Draft-free baseline</source>
        <translation>无草稿基线</translation>
    </message>
    <message>
        <source>Run the baseline on a second copy of the model loaded without its draft — plain decoding exactly as a plain LLMPipeline does it. Costs the memory of a second copy. Off: the baseline runs on the same pipeline with 0 draft tokens (measured 0.86x the speed of a draft-free pipeline on the tiny pair), so the speed-up shown is a little higher.</source>
        <translation>在不带草稿模型加载的第二份模型副本上运行基线——与普通 LLMPipeline 完全相同的普通解码。需要多占用一份副本的内存。关闭时：基线在同一管线上以 0 个草稿 token 运行（在微型模型对上实测为无草稿管线速度的 0.86x），因此显示的加速会略高一些。</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Show drafted tokens</source>
        <translation>显示草稿 token</translation>
    </message>
    <message>
        <source>Tint the EAGLE-3 answer&apos;s text that came from accepted draft tokens</source>
        <translation>为 EAGLE-3 回答中来自被接受草稿 token 的文本着色</translation>
    </message>
</context>
<context>
    <name>CompareView</name>
    <message>
        <source>EagleChat — baseline vs EAGLE-3</source>
        <translation>EagleChat — 基线与 EAGLE-3 对比</translation>
    </message>
    <message>
        <source>Type or pick a prompt to compare.</source>
        <translation>请输入或选择一个提示词进行对比。</translation>
    </message>
    <message>
        <source>Load a model with an EAGLE-3 draft to compare.</source>
        <translation>请先加载带 EAGLE-3 草稿模型的模型，再进行对比。</translation>
    </message>
    <message>
        <source>Loading a draft-free copy of the model for the baseline…</source>
        <translation>正在为基线加载一份不带草稿模型的模型副本…</translation>
    </message>
    <message>
        <source>Warming up both modes (not counted)…</source>
        <translation>正在预热两种模式（不计入结果）…</translation>
    </message>
    <message>
        <source>The model is busy; try again when the reply has finished.</source>
        <translation>模型正忙；请在回复结束后重试。</translation>
    </message>
    <message>
        <source>Warming up both modes…</source>
        <translation>正在预热两种模式…</translation>
    </message>
    <message>
        <source>Reloading at {precision} precision…</source>
        <translation>正在以 {precision} 精度重新加载…</translation>
    </message>
    <message>
        <source>baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <source>Warming up {mode} (not counted)…</source>
        <translation>正在预热 {mode}（不计入结果）…</translation>
    </message>
    <message>
        <source>Run {run} of {runs}: {mode}…</source>
        <translation>第 {run} 次，共 {runs} 次：{mode}…</translation>
    </message>
    <message>
        <source>Run {run} of {runs} · {mode}</source>
        <translation>第 {run}/{runs} 轮 · {mode}</translation>
    </message>
    <message>
        <source>The comparison did not finish.</source>
        <translation>对比未完成。</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Did not finish</source>
        <translation>未完成</translation>
    </message>
    <message>
        <source>Could not load the draft-free copy: {reason}</source>
        <translation>无法加载不带草稿模型的副本：{reason}</translation>
    </message>
    <message>
        <source>Could not reload at {precision}: {reason}</source>
        <translation>无法以 {precision} 精度重新加载：{reason}</translation>
    </message>
    <message>
        <source>Export the comparison to…</source>
        <translation>将对比结果导出到…</translation>
    </message>
    <message>
        <source>, </source>
        <comment>between the items of a list</comment>
        <translation>、</translation>
    </message>
    <message>
        <source>Exported: {files}</source>
        <translation>已导出：{files}</translation>
    </message>
    <message>
        <source>Cancel the run; with none running, leave full screen, else close the window</source>
        <translation>取消运行；没有运行时退出全屏，否则关闭窗口</translation>
    </message>
    <message>
        <source>The EAGLE-3 run&apos;s verification steps show here</source>
        <translation>EAGLE-3 运行的验证步骤将显示在这里</translation>
    </message>
    <message>
        <source>Baseline (plain decoding)</source>
        <translation>基线（普通解码）</translation>
    </message>
    <message>
        <source>EAGLE-3 speculative decoding</source>
        <translation>EAGLE-3 投机解码</translation>
    </message>
    <message>
        <source>{title}: answer</source>
        <translation>{title}：回答</translation>
    </message>
    <message>
        <source>Pick a prompt and run the comparison.</source>
        <translation>选择一个提示词并运行对比。</translation>
    </message>
    <message>
        <source>Run the comparison</source>
        <translation>运行对比</translation>
    </message>
    <message>
        <source>Full screen with large type on or off</source>
        <translation>打开或关闭全屏大字显示</translation>
    </message>
</context>
<context>
    <name>Composer</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Cancel editing</source>
        <translation>取消编辑</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Send the message (Enter)</source>
        <translation>发送消息（Enter）</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the reply being written (Esc)</source>
        <translation>停止正在生成的回复（Esc）</translation>
    </message>
</context>
<context>
    <name>ConversationActions</name>
    <message>
        <source>Stop the reply in flight before switching conversations.</source>
        <translation>请先停止正在生成的回复，再切换对话。</translation>
    </message>
    <message>
        <source>That conversation no longer exists.</source>
        <translation>该对话已不存在。</translation>
    </message>
    <message>
        <source>Stop the reply in flight before deleting its conversation.</source>
        <translation>请先停止正在生成的回复，再删除它所在的对话。</translation>
    </message>
</context>
<context>
    <name>ConversationDocuments</name>
    <message>
        <source>Attach documents</source>
        <translation>附加文档</translation>
    </message>
    <message>
        <source>Documents (*.txt *.md *.pdf *.docx *.html *.htm *.py *.json *.csv);;All files (*)</source>
        <translation>文档 (*.txt *.md *.pdf *.docx *.html *.htm *.py *.json *.csv);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Your documents are searched by their words only: no embedding model is installed. `eagle-chat models pull {name}` ({size}) adds search by meaning.</source>
        <translation>文档目前只按字词搜索：尚未安装嵌入模型。运行 `eagle-chat models pull {name}`（{size}）即可按语义搜索。</translation>
    </message>
    <message>
        <source>Starting to index…</source>
        <translation>正在开始建立索引…</translation>
    </message>
    <message>
        <source>Indexing {done} of {total} — {name}</source>
        <translation>正在索引第 {done} 个，共 {total} 个 — {name}</translation>
    </message>
    <message>
        <source>{n} file(s) could not be indexed: {reasons}</source>
        <translation>{n} 个文件无法建立索引：{reasons}</translation>
    </message>
    <message>
        <source> (and {more} more)</source>
        <translation>（另有 {more} 个）</translation>
    </message>
    <message>
        <source>Your documents could not be searched, so this reply does not use them: {reason}</source>
        <translation>无法检索你的文档，因此此回复未使用它们：{reason}</translation>
    </message>
</context>
<context>
    <name>ConversationList</name>
    <message>
        <source>New conversation</source>
        <translation>新建对话</translation>
    </message>
    <message>
        <source>Search conversations</source>
        <translation>搜索对话</translation>
    </message>
    <message>
        <source>Shows the conversations whose title or messages contain the text (Ctrl+F)</source>
        <translation>显示标题或消息中包含该文字的对话（Ctrl+F）</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>对话列表</translation>
    </message>
    <message>
        <source>Enter opens a conversation, F2 renames it, Delete deletes it</source>
        <translation>Enter 打开对话，F2 重命名，Delete 删除</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>New conversation</source>
        <comment>the title of a conversation before its first message</comment>
        <translation>新对话</translation>
    </message>
    <message>
        <source>Rename conversation</source>
        <translation>重命名对话</translation>
    </message>
    <message>
        <source>Title:</source>
        <translation>标题：</translation>
    </message>
    <message>
        <source>Delete conversation</source>
        <translation>删除对话</translation>
    </message>
    <message>
        <source>Delete “{title}” and all its messages?</source>
        <translation>删除“{title}”及其所有消息？</translation>
    </message>
</context>
<context>
    <name>DocumentLibrary</name>
    <message>
        <source>Looking at {n} files…</source>
        <translation>正在查看 {n} 个文件…</translation>
    </message>
    <message>
        <source>Starting to index…</source>
        <translation>正在开始建立索引…</translation>
    </message>
    <message>
        <source>Indexing {done} — {name}</source>
        <translation>正在索引第 {done} 个 — {name}</translation>
    </message>
    <message>
        <source>The library is up to date.</source>
        <translation>资料库已是最新。</translation>
    </message>
</context>
<context>
    <name>EmbedderPull</name>
    <message>
        <source>Get {name} ({size})</source>
        <translation>获取 {name}（{size}）</translation>
    </message>
    <message>
        <source>Get {name}</source>
        <translation>获取 {name}</translation>
    </message>
    <message>
        <source>Getting {name}…</source>
        <translation>正在获取 {name}…</translation>
    </message>
    <message>
        <source>{name} is ready: your documents are now searched by meaning too.</source>
        <translation>{name} 已就绪：现在也会按含义搜索你的文档。</translation>
    </message>
    <message>
        <source>The embedding model could not be downloaded: {reason} Your documents are still searched by their words.</source>
        <translation>无法下载嵌入模型：{reason} 你的文档仍按字词搜索。</translation>
    </message>
</context>
<context>
    <name>EngineStatus</name>
    <message>
        <source>Load the model again</source>
        <translation>重新加载模型</translation>
    </message>
    <message>
        <source>The engine is running again ({seconds:.1f} s to load the model).</source>
        <translation>引擎已重新运行（加载模型用时 {seconds:.1f} 秒）。</translation>
    </message>
    <message>
        <source>The reply has not stopped although Stop was pressed: the engine does not answer.</source>
        <translation>已按下“停止”，但回复仍未停止：引擎没有响应。</translation>
    </message>
    <message>
        <source>Restart the engine</source>
        <translation>重启引擎</translation>
    </message>
    <message>
        <source>The model is unloaded; its memory is back with the system.</source>
        <translation>模型已卸载，其占用的内存已归还系统。</translation>
    </message>
    <message>
        <source>No model is loaded.</source>
        <translation>未加载模型。</translation>
    </message>
</context>
<context>
    <name>FailureReporter</name>
    <message>
        <source>Something went wrong ({kind}: {error}). EagleChat keeps running.</source>
        <translation>出现问题（{kind}：{error}）。EagleChat 会继续运行。</translation>
    </message>
    <message>
        <source> Details are in the log: {path}</source>
        <translation>详细信息见日志：{path}</translation>
    </message>
</context>
<context>
    <name>FirstRunCard</name>
    <message>
        <source>About the model you are trying</source>
        <translation>关于你正在试用的模型</translation>
    </message>
    <message>
        <source>You are trying EagleChat on a toy model</source>
        <translation>你正在用一个玩具模型试用 EagleChat</translation>
    </message>
    <message>
        <source>Hide this card</source>
        <translation>隐藏此卡片</translation>
    </message>
    <message>
        <source>The bundled pair is tiny (about a million weights), trained by EagleChat&apos;s authors on Python source code so that the app works offline from the first start. Its replies are toy quality: enough to try the window, the speed chart and the API server, not to get answers.</source>
        <translation>内置模型对非常小（约一百万个权重），由 EagleChat 的作者用 Python 源代码训练，让应用首次启动就能离线工作。它的回复只是玩具水平：足以试用窗口、速度图表和 API 服务器，但不能用来获得答案。</translation>
    </message>
    <message>
        <source>Try the speed-demo pair: no download, shows EAGLE-3&apos;s speed-up</source>
        <translation>试用速度演示模型对：无需下载，展示 EAGLE-3 的加速效果</translation>
    </message>
    <message>
        <source>The same toy model widened to ~50M weights (about 100 MB, built on this computer in seconds): the same replies, at the cost per token of a model where EAGLE-3 pays off on a CPU.</source>
        <translation>同一个玩具模型加宽到约 5000 万个权重（约 100 MB，在本机几秒内生成）：回复相同，但每个词元的开销相当于一个在 CPU 上能让 EAGLE-3 发挥作用的模型。</translation>
    </message>
    <message>
        <source>Get a real model…</source>
        <translation>获取真正的模型…</translation>
    </message>
    <message>
        <source>Get {title}: {size} download, runs on your {device}…</source>
        <translation>获取 {title}：下载 {size}，可在你的 {device} 上运行…</translation>
    </message>
</context>
<context>
    <name>GenerationWorker</name>
    <message>
        <source>Loading failed unexpectedly: {error}</source>
        <translation>加载意外失败：{error}</translation>
    </message>
    <message>
        <source>No model is loaded yet.</source>
        <translation>尚未加载模型。</translation>
    </message>
    <message>
        <source>Loading was cancelled.</source>
        <translation>加载已取消。</translation>
    </message>
    <message>
        <source>The engine stopped while loading ({cause}). Its log: {path}</source>
        <translation>引擎在加载时停止（{cause}）。日志：{path}</translation>
    </message>
    <message>
        <source>Stopped before it started.</source>
        <translation>尚未开始即已停止。</translation>
    </message>
    <message>
        <source>The engine crashed {count} times within {minutes} minutes, so it is not restarted again. What is known to help: turn prefix caching off (Reuse earlier turns, under the options), or use the full-vocabulary draft of this model. The log: {path}</source>
        <translation>引擎在 {minutes} 分钟内崩溃了 {count} 次，因此不再自动重启。已知有效的办法：关闭前缀缓存（选项中的“复用之前的轮次”），或改用此模型的全词表草稿模型。日志：{path}</translation>
    </message>
    <message>
        <source>The engine stopped ({cause}); starting it again with the same model…</source>
        <translation>引擎已停止（{cause}），正在用同一模型重新启动…</translation>
    </message>
    <message>
        <source>The engine could not be started again: {error}</source>
        <translation>无法重新启动引擎：{error}</translation>
    </message>
    <message>
        <source>Generation failed unexpectedly: {error}</source>
        <translation>生成意外失败：{error}</translation>
    </message>
    <message>
        <source>The engine was restarted; this reply is kept as far as it got.</source>
        <translation>引擎已重启；此回复保留到中断之处。</translation>
    </message>
    <message>
        <source>The engine stopped mid-reply ({cause}); the reply is kept as far as it got, and the engine starts again with the same model. The log: {path}</source>
        <translation>引擎在回复中途停止（{cause}）；回复保留到中断之处，引擎将用同一模型重新启动。日志：{path}</translation>
    </message>
</context>
<context>
    <name>GetModelsDialog</name>
    <message>
        <source>Get models</source>
        <translation>获取模型</translation>
    </message>
    <message>
        <source>Getting {title}…</source>
        <translation>正在获取 {title}…</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <source>Models you can get</source>
        <translation>可获取的模型</translation>
    </message>
    <message>
        <source>Each entry is a main model with its EAGLE-3 draft model, their download size and whether it is installed</source>
        <translation>每一项是一个主模型及其 EAGLE-3 草稿模型，并注明下载大小和是否已安装</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>NPU needs OpenVINO&apos;s NPU build of the model and an int8 draft.</source>
        <translation>NPU 需要 OpenVINO 为 NPU 构建的模型和 int8 草稿模型。</translation>
    </message>
    <message>
        <source>Download from</source>
        <translation>下载来源</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>端点</translation>
    </message>
    <message>
        <source>A mirror of the hub, e.g. https://hf-mirror.com. Empty: the hub&apos;s own site.</source>
        <translation>模型站点的镜像，例如 https://hf-mirror.com。留空则使用站点本身。</translation>
    </message>
    <message>
        <source>Device:</source>
        <translation>设备：</translation>
    </message>
    <message>
        <source>Download from:</source>
        <translation>下载来源：</translation>
    </message>
    <message>
        <source>Endpoint:</source>
        <translation>端点：</translation>
    </message>
    <message>
        <source>Download progress</source>
        <translation>下载进度</translation>
    </message>
    <message>
        <source>Choose a model and press Download. Everything runs offline afterwards.</source>
        <translation>选择一个模型并点击“下载”。之后一切均可离线运行。</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>下载</translation>
    </message>
    <message>
        <source>Cancel download</source>
        <translation>取消下载</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>{title} is not available on {source}; using {other}.</source>
        <translation>{source} 上没有 {title}，改用 {other}。</translation>
    </message>
    <message>
        <source>{name} is ready. Choose it in the model menu.</source>
        <translation>{name} 已就绪，请在“模型”菜单中选择它。</translation>
    </message>
</context>
<context>
    <name>IndexRunner</name>
    <message>
        <source>The indexing process could not start.</source>
        <translation>无法启动建立索引的进程。</translation>
    </message>
    <message>
        <source>Indexing stopped; the files indexed so far are kept.</source>
        <translation>已停止建立索引；已索引的文件会保留。</translation>
    </message>
    <message>
        <source>The indexing process ended unexpectedly ({code}).</source>
        <translation>建立索引的进程意外结束（{code}）。</translation>
    </message>
</context>
<context>
    <name>InstanceGuard</name>
    <message>
        <source>Another EagleChat is using the same data folder and does not answer; it may still be closing. Wait a moment and start EagleChat again. If this keeps happening, end the other EagleChat (in the task manager) and try again.

Data folder: {folder}</source>
        <translation>另一个 EagleChat 正在使用同一个数据文件夹，且没有响应；它可能仍在关闭。请稍候再启动 EagleChat。如果一直如此，请（在任务管理器中）结束另一个 EagleChat，然后重试。

数据文件夹：{folder}</translation>
    </message>
</context>
<context>
    <name>LibraryDialog</name>
    <message>
        <source>Documents library</source>
        <translation>文档资料库</translation>
    </message>
    <message>
        <source>Folders indexed for every conversation. Tick “Library” above the message box to let a conversation&apos;s replies answer from them.</source>
        <translation>为所有对话建立索引的文件夹。勾选消息框上方的“资料库”，即可让该对话的回复根据它们作答。</translation>
    </message>
    <message>
        <source>Library folders</source>
        <translation>资料库文件夹</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <source>Update</source>
        <translation>更新</translation>
    </message>
    <message>
        <source>Read changed files again and forget files that are gone</source>
        <translation>重新读取已更改的文件，并忘记已不存在的文件</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop indexing the library</source>
        <translation>停止为资料库建立索引</translation>
    </message>
    <message>
        <source>{folder} — {n} files</source>
        <translation>{folder} — {n} 个文件</translation>
    </message>
    <message>
        <source>Add a folder to the library</source>
        <translation>向资料库添加文件夹</translation>
    </message>
</context>
<context>
    <name>MessageActions</name>
    <message>
        <source>Regenerate reply</source>
        <translation>重新生成回复</translation>
    </message>
    <message>
        <source>Edit last message (Up in the message box)</source>
        <translation>编辑上一条消息（在消息框中按 Up）</translation>
    </message>
    <message>
        <source>Continue cut reply</source>
        <translation>继续被截断的回复</translation>
    </message>
    <message>
        <source>Export conversation (Markdown, JSON)…</source>
        <translation>导出对话（Markdown、JSON）…</translation>
    </message>
    <message>
        <source>Import conversation (JSON)…</source>
        <translation>导入对话（JSON）…</translation>
    </message>
    <message>
        <source>Search conversations</source>
        <translation>搜索对话</translation>
    </message>
    <message>
        <source>There is no reply to regenerate yet.</source>
        <translation>还没有可以重新生成的回复。</translation>
    </message>
    <message>
        <source>With an EAGLE-3 draft loaded, OpenVINO GenAI decodes greedily: the same conversation always gets the same answer. To get another one, edit your message, or load the model without its draft and sample (no EAGLE-3 speed-up until you choose the pair again in the Models menu).</source>
        <translation>加载了 EAGLE-3 草稿模型时，OpenVINO GenAI 只能贪心解码：同样的对话总会得到同样的回答。想得到不同的回答，可以编辑你的消息，或者不带草稿模型加载并采样（在“模型”菜单中重新选择这对模型之前，不会有 EAGLE-3 加速）。</translation>
    </message>
    <message>
        <source>Load without the draft and sample</source>
        <translation>不带草稿模型加载并采样</translation>
    </message>
    <message>
        <source>The last reply is complete: there is nothing to continue.</source>
        <translation>最后一条回复已经完整，没有可继续的内容。</translation>
    </message>
    <message>
        <source>Editing your message: Enter sends it as a new version (this one is kept, ‹ › switches); Esc cancels.</source>
        <translation>正在编辑消息：按 Enter 作为新版本发送（原版本保留，用 ‹ › 切换）；按 Esc 取消。</translation>
    </message>
    <message numerus="yes">
        <source>Delete this message and the %n message(s) after it? Other versions stay.</source>
        <translation>
            <numerusform>删除这条消息及其后的 %n 条消息？其他版本会保留。</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete this message? Other versions stay.</source>
        <translation>删除这条消息？其他版本会保留。</translation>
    </message>
    <message>
        <source>Delete message</source>
        <translation>删除消息</translation>
    </message>
    <message>
        <source>Open a conversation with messages to export it.</source>
        <translation>请先打开一个有消息的对话，再导出。</translation>
    </message>
    <message>
        <source>Markdown, to read (*.md);;JSON, every branch, to import again (*.json)</source>
        <translation>Markdown，便于阅读 (*.md);;JSON，包含所有分支，可再次导入 (*.json)</translation>
    </message>
    <message>
        <source>Export conversation</source>
        <translation>导出对话</translation>
    </message>
    <message>
        <source>The conversation could not be written to {path}: {reason}</source>
        <translation>无法将对话写入 {path}：{reason}</translation>
    </message>
    <message>
        <source>Exported “{title}” to {path}</source>
        <translation>已将“{title}”导出到 {path}</translation>
    </message>
    <message>
        <source>Import conversation</source>
        <translation>导入对话</translation>
    </message>
    <message>
        <source>EagleChat JSON (*.json)</source>
        <translation>EagleChat JSON (*.json)</translation>
    </message>
    <message>
        <source>{path} could not be read: {reason}</source>
        <translation>无法读取 {path}：{reason}</translation>
    </message>
    <message>
        <source>{name} was not imported: {reason} Nothing was changed: your conversations and the file are as they were.</source>
        <translation>{name} 未导入：{reason} 没有任何改动：你的对话和该文件都保持原样。</translation>
    </message>
    <message>
        <source>Imported “{title}”</source>
        <translation>已导入“{title}”</translation>
    </message>
    <message>
        <source>Generate reply</source>
        <translation>生成回复</translation>
    </message>
</context>
<context>
    <name>ModelBar</name>
    <message>
        <source>The device the model runs on (changing it reloads the model)</source>
        <translation>模型运行的设备（更改会重新加载模型）</translation>
    </message>
    <message>
        <source>Choose the model and its EAGLE-3 draft</source>
        <translation>选择主模型及其 EAGLE-3 草稿模型</translation>
    </message>
    <message>
        <source>Speculative decoding with the EAGLE-3 draft (off: plain decoding)</source>
        <translation>使用 EAGLE-3 草稿模型进行投机解码（关闭：普通解码）</translation>
    </message>
    <message>
        <source>No model</source>
        <translation>未选择模型</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Models…</source>
        <translation>模型…</translation>
    </message>
    <message>
        <source>Speculative decoding</source>
        <translation>投机解码</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Where the model runs; changing it reloads the model</source>
        <translation>模型运行的设备；更改后会重新加载模型</translation>
    </message>
    <message>
        <source>Remote server…</source>
        <translation>远程服务器…</translation>
    </message>
    <message>
        <source>An OpenAI-compatible server: OpenVINO Model Server, or another EagleChat</source>
        <translation>兼容 OpenAI 的服务器：OpenVINO Model Server 或另一个 EagleChat</translation>
    </message>
    <message>
        <source>Devices</source>
        <translation>设备列表</translation>
    </message>
    <message>
        <source>Draft tokens (K)</source>
        <translation>草稿 token 数（K）</translation>
    </message>
    <message>
        <source>K: how many tokens the EAGLE-3 draft model proposes per step for the main model to verify in one pass. A larger K gains more when most drafts are accepted. Applies to the next reply without reloading.</source>
        <translation>K：每一步由 EAGLE-3 草稿模型提出、交给主模型一次验证的 token 数。草稿大多被接受时，K 越大收益越多。从下一条回复起生效，无需重新加载。</translation>
    </message>
    <message>
        <source>Draft tokens proposed per step; applies to the next reply without reloading</source>
        <translation>每步提出的草稿 token 数；从下一条回复起生效，无需重新加载</translation>
    </message>
    <message>
        <source>Draft tokens</source>
        <translation>草稿 token 数</translation>
    </message>
    <message>
        <source>Run on the {device}</source>
        <translation>在 {device} 上运行</translation>
    </message>
    <message>
        <source>{device} (not available)</source>
        <translation>{device}（不可用）</translation>
    </message>
    <message>
        <source>No EAGLE-3 draft loaded: choose a draft folder to compare.</source>
        <translation>未加载 EAGLE-3 草稿模型：请选择草稿模型文件夹以进行对比。</translation>
    </message>
</context>
<context>
    <name>ModelLoads</name>
    <message>
        <source>{reason} Nothing was changed.</source>
        <translation>{reason}未做任何更改。</translation>
    </message>
    <message>
        <source>no draft</source>
        <translation>无草稿模型</translation>
    </message>
    <message>
        <source>Loaded in {seconds:.1f} s</source>
        <translation>已加载，用时 {seconds:.1f} 秒</translation>
    </message>
    <message>
        <source>{reason} Loading the model EagleChat opens with instead: {model}.</source>
        <translation>{reason}改为加载 EagleChat 默认打开的模型：{model}。</translation>
    </message>
    <message>
        <source>{reason} {model} is still loaded and answers as before.</source>
        <translation>{reason}{model} 仍已加载，会照常回复。</translation>
    </message>
    <message>
        <source>{reason} No model is loaded: choose one in Models….</source>
        <translation>{reason}当前未加载模型：请在“模型…”中选择一个。</translation>
    </message>
    <message>
        <source>No model loaded</source>
        <translation>未加载模型</translation>
    </message>
</context>
<context>
    <name>ModelsMenu</name>
    <message>
        <source>&amp;Models</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <source>Bundled tiny pair (toy quality)</source>
        <translation>内置微型模型对（仅供测试，质量很低）</translation>
    </message>
    <message>
        <source>Speed-demo pair (toy quality, ~50M weights: shows the speed-up on a CPU)</source>
        <translation>演示模型对（质量很低，约 50M 权重：在 CPU 上展示加速效果）</translation>
    </message>
    <message>
        <source>Get models…</source>
        <translation>获取模型…</translation>
    </message>
    <message>
        <source>Choose model folders…</source>
        <translation>选择模型文件夹…</translation>
    </message>
    <message>
        <source>Unload the model (frees its memory)</source>
        <translation>卸载模型（释放其内存）</translation>
    </message>
    <message>
        <source>Choose the model folder (OpenVINO IR)</source>
        <translation>选择模型文件夹（OpenVINO IR）</translation>
    </message>
    <message>
        <source>Choose its EAGLE-3 draft folder (Cancel: none)</source>
        <translation>选择对应的 EAGLE-3 草稿模型文件夹（取消：不用草稿模型）</translation>
    </message>
    <message>
        <source>Could not build the speed-demo pair: {error}</source>
        <translation>无法构建演示模型对：{error}</translation>
    </message>
</context>
<context>
    <name>NoticeBar</name>
    <message>
        <source>Copy details</source>
        <translation>复制详情</translation>
    </message>
    <message>
        <source>Copy what went wrong, with the log&apos;s location, for a bug report</source>
        <translation>复制出错信息及日志位置，用于报告问题</translation>
    </message>
    <message>
        <source>Dismiss this notice</source>
        <translation>关闭此提示</translation>
    </message>
</context>
<context>
    <name>OptionsPanel</name>
    <message>
        <source>At the device&apos;s reduced precision, EAGLE-3 and plain answers can part after a while; at f32 greedy answers are identical. Changing it reloads the model.</source>
        <translation>在设备的低精度下，EAGLE-3 与普通解码的回答可能在一段之后出现分歧；在 f32 下，贪心解码的回答完全一致。更改精度会重新加载模型。</translation>
    </message>
    <message>
        <source>Locked to greedy decoding while an EAGLE-3 draft is loaded: OpenVINO GenAI streams EAGLE-3 pipelines greedily only. Load the model without a draft to sample.</source>
        <translation>已加载 EAGLE-3 草稿模型，因此锁定为贪心解码：OpenVINO GenAI 的 EAGLE-3 流水线只支持贪心的流式生成。如需采样，请不带草稿模型加载该模型。</translation>
    </message>
    <message>
        <source>Greedy only while an EAGLE-3 draft is loaded</source>
        <translation>加载 EAGLE-3 草稿模型时只能贪心解码</translation>
    </message>
    <message>
        <source>Max new tokens</source>
        <translation>最大新 token 数</translation>
    </message>
    <message>
        <source>The most tokens a reply may have</source>
        <translation>一条回复最多可生成的 token 数</translation>
    </message>
    <message>
        <source>Let the model think first</source>
        <translation>让模型先思考</translation>
    </message>
    <message>
        <source>Sample (temperature)</source>
        <translation>采样（温度）</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Used when sampling: higher gives more varied replies</source>
        <translation>采样时使用：越高，回复越多样</translation>
    </message>
    <message>
        <source>Speculation</source>
        <translation>投机方式</translation>
    </message>
    <message>
        <source>Speculation methods</source>
        <translation>投机方式列表</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Fastest (device default)</source>
        <translation>最快（设备默认）</translation>
    </message>
    <message>
        <source>f32 (exact comparisons)</source>
        <translation>f32（精确对比）</translation>
    </message>
    <message>
        <source>Precisions</source>
        <translation>精度列表</translation>
    </message>
    <message>
        <source>Reuse earlier turns (prefix caching)</source>
        <translation>复用之前的轮次（前缀缓存）</translation>
    </message>
    <message>
        <source>Keep the KV cache of the conversation so far: the next reply reads only the new message, so long conversations stay fast. CPU and GPU (the NPU re-reads the conversation every turn). Changing it reloads the model.</source>
        <translation>保留到目前为止对话的 KV 缓存：下一条回复只需读取新消息，长对话也能保持快速。适用于 CPU 和 GPU（NPU 每一轮都会重新读取整个对话）。更改会重新加载模型。</translation>
    </message>
    <message>
        <source>System prompt</source>
        <translation>系统提示词</translation>
    </message>
    <message>
        <source>Optional instructions for this conversation</source>
        <translation>此对话的可选指令</translation>
    </message>
    <message>
        <source>Thinking</source>
        <translation>思考</translation>
    </message>
    <message>
        <source>Decoding</source>
        <translation>解码</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>This model&apos;s chat template has no thinking switch.</source>
        <translation>此模型的对话模板没有思考开关。</translation>
    </message>
</context>
<context>
    <name>OtherSourceButton</name>
    <message>
        <source>Download from {there}</source>
        <translation>从 {there} 下载</translation>
    </message>
    <message>
        <source>{there} has this model too, and is often reachable where {here} is not.</source>
        <translation>{there} 也提供这个模型，在无法访问 {here} 的地方通常可以访问。</translation>
    </message>
</context>
<context>
    <name>PreflightPanel</name>
    <message>
        <source>EagleChat — demo pre-flight check</source>
        <translation>EagleChat — 演示前检查</translation>
    </message>
    <message>
        <source>Measuring the CPU load from other programs…</source>
        <translation>正在测量其他程序占用的 CPU 负载…</translation>
    </message>
    <message>
        <source>Warming up both modes…</source>
        <translation>正在预热两种模式…</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
    <message>
        <source>The model is busy with a reply.</source>
        <translation>模型正在生成回复。</translation>
    </message>
    <message>
        <source>Fixing…</source>
        <translation>正在修复…</translation>
    </message>
    <message>
        <source>Everything the app can fix is fixed.</source>
        <translation>应用能修复的问题都已修复。</translation>
    </message>
    <message>
        <source>Stopped: {reason}</source>
        <translation>已停止：{reason}</translation>
    </message>
    <message>
        <source>Your prompts for the demo</source>
        <translation>你的演示提示词</translation>
    </message>
    <message>
        <source>A prompt of your own for the demo (Enter adds it)</source>
        <translation>为演示添加自己的提示词（按 Enter 添加）</translation>
    </message>
    <message>
        <source>New prompt for the demo</source>
        <translation>新的演示提示词</translation>
    </message>
    <message>
        <source>Your pr&amp;ompts (after the English and Chinese presets):</source>
        <translation>你的提示词(&amp;O)（排在英文和中文预设之后）：</translation>
    </message>
    <message>
        <source>A&amp;dd</source>
        <translation>添加(&amp;D)</translation>
    </message>
    <message>
        <source>Re&amp;move</source>
        <translation>移除(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Fix what can be fixed</source>
        <translation>修复可修复的问题(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Re-check (F5)</source>
        <translation>重新检查(&amp;R) (F5)</translation>
    </message>
    <message>
        <source>&amp;Start the demo (full screen)</source>
        <translation>开始演示（全屏）(&amp;S)</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>&lt;b&gt;Before the demo&lt;/b&gt; — each line says what is fine (✓) or what to do.</source>
        <translation>&lt;b&gt;演示之前&lt;/b&gt; — 每一行说明哪些已就绪（✓）或需要做什么。</translation>
    </message>
    <message>
        <source>Check again</source>
        <translation>重新检查</translation>
    </message>
    <message>
        <source>Remove the selected prompt</source>
        <translation>移除所选提示词</translation>
    </message>
</context>
<context>
    <name>PresetsRow</name>
    <message>
        <source>quicksort</source>
        <translation>快速排序</translation>
    </message>
    <message>
        <source>context manager</source>
        <translation>上下文管理器</translation>
    </message>
    <message>
        <source>binary search</source>
        <translation>二分查找</translation>
    </message>
    <message>
        <source>{language} · {topic}</source>
        <translation>{language} · {topic}</translation>
    </message>
    <message>
        <source>Mine · {prompt}</source>
        <translation>我的 · {prompt}</translation>
    </message>
</context>
<context>
    <name>PromptEdit</name>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>Enter sends, Shift+Enter starts a new line, Esc stops the reply, Up in the empty box edits your last message</source>
        <translation>Enter 发送，Shift+Enter 换行，Esc 停止回复，在空的消息框中按 Up 编辑上一条消息</translation>
    </message>
    <message>
        <source>Message EagleChat — Enter to send, Shift+Enter for a new line, Esc to stop</source>
        <translation>给 EagleChat 发消息 — Enter 发送，Shift+Enter 换行，Esc 停止</translation>
    </message>
    <message>
        <source>Send the message</source>
        <translation>发送消息</translation>
    </message>
    <message>
        <source>Start a new line</source>
        <translation>换行</translation>
    </message>
    <message>
        <source>Stop the reply, or stop editing</source>
        <translation>停止回复，或退出编辑</translation>
    </message>
    <message>
        <source>Edit the last message (in the empty box)</source>
        <translation>编辑上一条消息（在空的消息框中）</translation>
    </message>
</context>
<context>
    <name>PullRunner</name>
    <message>
        <source>Already done.</source>
        <translation>已完成。</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>Could not start {program}: the Python that runs EagleChat is missing or broken.</source>
        <translation>无法启动 {program}：运行 EagleChat 的 Python 缺失或已损坏。</translation>
    </message>
    <message>
        <source>Stopped. Nothing was registered; what was downloaded so far is kept, and the next download of this model resumes from there.</source>
        <translation>已停止。没有注册任何模型；已下载的部分会保留，下次下载此模型时从断点继续。</translation>
    </message>
</context>
<context>
    <name>RemoteBackend</name>
    <message>
        <source>Connecting to {server}</source>
        <translation>正在连接 {server}</translation>
    </message>
    <message>
        <source>Ready — {server}</source>
        <translation>就绪 — {server}</translation>
    </message>
    <message>
        <source>{model} at {url} (remote server)</source>
        <translation>{url} 上的 {model}（远程服务器）</translation>
    </message>
    <message>
        <source>remote model</source>
        <translation>远程模型</translation>
    </message>
</context>
<context>
    <name>RemoteDialog</name>
    <message>
        <source>Remote server</source>
        <translation>远程服务器</translation>
    </message>
    <message>
        <source>Server URL</source>
        <translation>服务器 URL</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>Empty if the server needs no key</source>
        <translation>服务器不需要密钥时留空</translation>
    </message>
    <message>
        <source>the server&apos;s first model</source>
        <translation>服务器的第一个模型</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Empty: the first model the server lists</source>
        <translation>留空：使用服务器列出的第一个模型</translation>
    </message>
    <message>
        <source>An OpenAI-compatible base URL: another EagleChat (http://host:8000/v1) or OpenVINO Model Server (http://host:8000/v3). Leave the model empty to use the first one the server lists.</source>
        <translation>兼容 OpenAI 的基础 URL：另一个 EagleChat（http://host:8000/v1）或 OpenVINO Model Server（http://host:8000/v3）。模型留空则使用服务器列出的第一个模型。</translation>
    </message>
    <message>
        <source>The key is kept in the system keyring.</source>
        <translation>密钥保存在系统密钥环中。</translation>
    </message>
    <message>
        <source>No system keyring here: the key is kept in a file only you can read.</source>
        <translation>此系统没有密钥环：密钥保存在只有你能读取的文件中。</translation>
    </message>
    <message>
        <source>{hint} {where}</source>
        <translation>{hint}{where}</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Enter a URL that starts with http:// or https://, e.g. http://127.0.0.1:8000/v1</source>
        <translation>请输入以 http:// 或 https:// 开头的 URL，例如 http://127.0.0.1:8000/v1</translation>
    </message>
</context>
<context>
    <name>RequestQueue</name>
    <message>
        <source>A reply is still being generated; stop it first.</source>
        <translation>仍在生成回复，请先停止。</translation>
    </message>
    <message>
        <source>The model is still loading; wait a moment.</source>
        <translation>模型仍在加载，请稍候。</translation>
    </message>
    <message>
        <source>No model is loaded. Choose a model folder first.</source>
        <translation>未加载模型。请先选择一个模型文件夹。</translation>
    </message>
</context>
<context>
    <name>ServerPanel</name>
    <message>
        <source>API server</source>
        <translation>API 服务器</translation>
    </message>
    <message>
        <source>OpenAI-compatible API server</source>
        <translation>兼容 OpenAI 的 API 服务器</translation>
    </message>
    <message>
        <source>Serve the loaded model at http://127.0.0.1:{port}/v1 (OpenAI-compatible) to IDE assistants and agents on this computer</source>
        <translation>在 http://127.0.0.1:{port}/v1（兼容 OpenAI）上提供已加载的模型，供本机的 IDE 助手和智能体使用</translation>
    </message>
    <message>
        <source>API server address</source>
        <translation>API 服务器地址</translation>
    </message>
    <message>
        <source>API request log</source>
        <translation>API 请求日志</translation>
    </message>
    <message>
        <source>Serving {url} — requests share the window&apos;s model and queue.</source>
        <translation>正在 {url} 提供服务 — 请求与窗口共用同一个模型和队列。</translation>
    </message>
    <message>
        <source>API server on {url}</source>
        <translation>API 服务器已在 {url} 运行</translation>
    </message>
    <message>
        <source>Server stopped.</source>
        <translation>服务器已停止。</translation>
    </message>
    <message>
        <source>API · EAGLE-3</source>
        <translation>API · EAGLE-3</translation>
    </message>
    <message>
        <source>API · baseline</source>
        <translation>API · 基线</translation>
    </message>
</context>
<context>
    <name>SettingsBinder</name>
    <message>
        <source>Your settings could not be saved ({error}); they apply until EagleChat closes.</source>
        <translation>无法保存设置（{error}）；在 EagleChat 关闭之前仍然有效。</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <source>(no description)</source>
        <translation>（无说明）</translation>
    </message>
    <message>
        <source>Main window</source>
        <translation>主窗口</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Filter by key or action</source>
        <translation>按按键或操作筛选</translation>
    </message>
    <message>
        <source>Filter shortcuts</source>
        <translation>筛选快捷键</translation>
    </message>
    <message>
        <source>One row per shortcut: its keys, what it does and where</source>
        <translation>每行一个快捷键：按键、作用和适用位置</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message numerus="yes">
        <source>%n shortcut(s)</source>
        <translation>
            <numerusform>%n 个快捷键</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SidePanel</name>
    <message>
        <source>Whether the next reply is speculative</source>
        <translation>下一条回复是否使用投机解码</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>速度</translation>
    </message>
    <message>
        <source>Acceptance</source>
        <translation>接受率</translation>
    </message>
    <message>
        <source>Tokens per second of the recent replies</source>
        <translation>最近几条回复的每秒 token 数</translation>
    </message>
    <message>
        <source>How far each verification step of the reply on screen got</source>
        <translation>当前回复的每个验证步各接受了多少草稿 token</translation>
    </message>
    <message>
        <source>Show drafted tokens</source>
        <translation>显示草稿 token</translation>
    </message>
    <message>
        <source>Tint the text that came from drafted tokens the main model accepted; the main model&apos;s own token of each step stays plain. Hover tinted text to see its step.</source>
        <translation>为主模型接受的草稿 token 所写出的文字着色；每一步中主模型自己生成的 token 保持原样。将鼠标悬停在着色文字上可查看它属于哪一步。</translation>
    </message>
    <message>
        <source>No reply yet</source>
        <translation>尚无回复</translation>
    </message>
    <message>
        <source>Last reply statistics</source>
        <translation>上一条回复的统计</translation>
    </message>
    <message>
        <source>Compare baseline vs EAGLE-3</source>
        <translation>对比基线与 EAGLE-3</translation>
    </message>
    <message>
        <source>Runs the same prompt with plain decoding and with EAGLE-3 side by side</source>
        <translation>用普通解码和 EAGLE-3 并排运行同一个提示词</translation>
    </message>
    <message>
        <source>Auto-tune draft tokens…</source>
        <translation>自动调优草稿 token 数…</translation>
    </message>
    <message>
        <source>Measures which number of draft tokens is fastest for this model on this device</source>
        <translation>测量此模型在此设备上用多少个草稿 token 最快</translation>
    </message>
</context>
<context>
    <name>SourceLinks</name>
    <message>
        <source>Sources</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>{file}, page {page}</source>
        <translation>{file}，第 {page} 页</translation>
    </message>
</context>
<context>
    <name>SourcePreview</name>
    <message>
        <source>Passage</source>
        <translation>段落</translation>
    </message>
    <message>
        <source>Open the file</source>
        <translation>打开文件</translation>
    </message>
    <message>
        <source>(the file is no longer there)</source>
        <translation>（该文件已不存在）</translation>
    </message>
    <message>
        <source>No program could be started to open this file. Open it from its folder: {folder}</source>
        <translation>无法启动程序来打开此文件。请从它所在的文件夹打开：{folder}</translation>
    </message>
</context>
<context>
    <name>SpeculationDisplay</name>
    <message>
        <source>Show drafted tokens</source>
        <translation>显示草稿 token</translation>
    </message>
</context>
<context>
    <name>SpeedChart</name>
    <message>
        <source>baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <source>Speed chart</source>
        <translation>速度图</translation>
    </message>
    <message>
        <source>Tokens per second of each reply over the seconds since it started; EAGLE-3 lines solid, baseline lines dashed</source>
        <translation>每条回复自开始以来每秒生成的 token 数；EAGLE-3 为实线，基线为虚线</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>tokens/s</translation>
    </message>
    <message>
        <source>{name} — latest reply</source>
        <translation>{name} — 最新回复</translation>
    </message>
    <message>
        <source>{name} — earlier reply</source>
        <translation>{name} — 较早的回复</translation>
    </message>
    <message>
        <source>{rate:.1f} tokens/s so far</source>
        <translation>目前 {rate:.1f} tokens/s</translation>
    </message>
    <message>
        <source>{rate:.1f} tokens/s · {tokens} tokens</source>
        <translation>{rate:.1f} tokens/s · {tokens} 个 token</translation>
    </message>
    <message>
        <source>K={k} tree {tree}</source>
        <translation>K={k}，草稿树 {tree}</translation>
    </message>
    <message>
        <source>{k} · {accepted} of {drafted} drafted tokens accepted</source>
        <translation>{k} · 草稿 token 接受 {accepted}/{drafted}</translation>
    </message>
    <message>
        <source>s</source>
        <comment>seconds since the reply started</comment>
        <translation>秒</translation>
    </message>
</context>
<context>
    <name>SpeedDemoFlow</name>
    <message>
        <source>The model is busy; try again when the reply has finished.</source>
        <translation>模型正忙；请在回复结束后重试。</translation>
    </message>
    <message>
        <source>Another model was loaded meanwhile; the speed-demo pair was not.</source>
        <translation>期间加载了另一个模型；演示模型对未加载。</translation>
    </message>
    <message>
        <source>The short tune could not start; the model is busy.</source>
        <translation>快速调优无法开始；模型正忙。</translation>
    </message>
    <message>
        <source>The short tune did not finish.</source>
        <translation>快速调优未完成。</translation>
    </message>
</context>
<context>
    <name>SpeedDemoOffer</name>
    <message>
        <source>Use the s&amp;peed-demo pair: build, load, tune, run</source>
        <translation>使用演示模型对(&amp;P)：构建、加载、调优、运行</translation>
    </message>
    <message>
        <source>The toy model widened to ~50M weights: the same replies, the cost per token of a model where EAGLE-3 pays off on a CPU. Loaded at {precision} so both modes&apos; answers are identical.</source>
        <translation>将玩具模型加宽到约 50M 权重：回复相同，但每个 token 的开销相当于一个在 CPU 上能从 EAGLE-3 获益的模型。以 {precision} 加载，两种模式的回答完全相同。</translation>
    </message>
</context>
<context>
    <name>StatusArea</name>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <source>No model loaded</source>
        <translation>未加载模型</translation>
    </message>
    <message>
        <source>Loading {model} on {device}…</source>
        <translation>正在 {device} 上加载 {model}…</translation>
    </message>
    <message>
        <source>Ready — {model} on {device}</source>
        <translation>就绪 — {model}，运行于 {device}</translation>
    </message>
    <message>
        <source>Generating…</source>
        <translation>正在生成…</translation>
    </message>
</context>
<context>
    <name>StoreWatch</name>
    <message>
        <source>Your conversations are saved again.</source>
        <translation>你的对话已恢复保存。</translation>
    </message>
</context>
<context>
    <name>ThinkingBlocks</name>
    <message>
        <source>Thinking…</source>
        <translation>思考中…</translation>
    </message>
    <message>
        <source>Thought for {seconds:.1f} s</source>
        <translation>已思考 {seconds:.1f} 秒</translation>
    </message>
    <message>
        <source>Thoughts</source>
        <translation>思考过程</translation>
    </message>
</context>
<context>
    <name>ThinkingNote</name>
    <message>
        <source>Thinking was on, but this model answered without thinking first: its chat template accepts the switch, but the model was not trained to use it.</source>
        <translation>已开启思考，但这个模型没有先思考就直接回答了：它的对话模板接受这个开关，但模型没有经过使用它的训练。</translation>
    </message>
    <message>
        <source>Turn thinking off</source>
        <translation>关闭思考</translation>
    </message>
</context>
<context>
    <name>ToolBlocks</name>
    <message>
        <source>waiting for approval</source>
        <translation>等待批准</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>error</source>
        <translation>出错</translation>
    </message>
    <message>
        <source>denied</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>This step: {tokens} tokens, {rate:.0f} tok/s, first token {ttft:.0f} ms</source>
        <translation>本步：{tokens} 个 token，{rate:.0f} tok/s，首个 token {ttft:.0f} ms</translation>
    </message>
    <message>
        <source>next step {ms:.0f} ms after the result</source>
        <translation>结果返回后 {ms:.0f} ms 开始下一步</translation>
    </message>
    <message>
        <source>Tool {tool}</source>
        <translation>工具 {tool}</translation>
    </message>
</context>
<context>
    <name>ToolsDialog</name>
    <message>
        <source>Tools (MCP servers)</source>
        <translation>工具（MCP 服务器）</translation>
    </message>
    <message>
        <source>Server / tool</source>
        <translation>服务器 / 工具</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Read mcp.json again</source>
        <translation>重新读取 mcp.json</translation>
    </message>
    <message>
        <source>Open its folder</source>
        <translation>打开所在文件夹</translation>
    </message>
    <message>
        <source>runs without asking</source>
        <translation>无需询问即运行</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>启动中</translation>
    </message>
    <message>
        <source>ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>off</source>
        <translation>已关闭</translation>
    </message>
    <message>
        <source>closed</source>
        <translation>已结束</translation>
    </message>
</context>
<context>
    <name>TuneDialog</name>
    <message>
        <source>Auto-tune draft tokens</source>
        <translation>自动调优草稿 token 数</translation>
    </message>
    <message>
        <source>Measuring… {done}/{total}</source>
        <translation>正在测量… {done}/{total}</translation>
    </message>
    <message>
        <source>The model is busy or has no EAGLE-3 draft; try again later.</source>
        <translation>模型正忙或没有 EAGLE-3 草稿模型，请稍后再试。</translation>
    </message>
    <message>
        <source>The sweep was stopped; nothing was saved.</source>
        <translation>扫描已停止；未保存任何结果。</translation>
    </message>
    <message>
        <source>The sweep did not finish (a run was stopped or failed); nothing was saved.</source>
        <translation>扫描没有完成（有运行被停止或失败）；未保存任何结果。</translation>
    </message>
    <message numerus="yes">
        <source>%n stopped run(s) not counted.</source>
        <translation>
            <numerusform>%n 次被停止的运行未计入。</numerusform>
        </translation>
    </message>
    <message>
        <source>Fastest: {config} — {speculative:.0f} tok/s vs baseline {baseline:.0f} (×{speedup:.2f}). Saved as the default for this model, draft and device.</source>
        <translation>最快：{config} — {speculative:.0f} tok/s，基线 {baseline:.0f}（加速 ×{speedup:.2f}）。已保存为此模型、草稿模型和设备的默认值。</translation>
    </message>
    <message>
        <source>EAGLE-3 tokens/s</source>
        <translation>EAGLE-3 tokens/s</translation>
    </message>
    <message>
        <source>baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <source>Auto-tune results chart</source>
        <translation>自动调优结果图</translation>
    </message>
    <message>
        <source>Bars: EAGLE-3 tokens per second for each number of draft tokens (K) tried; dashed line: baseline</source>
        <translation>柱：尝试过的每个草稿 token 数（K）下 EAGLE-3 的每秒 token 数；虚线：基线</translation>
    </message>
    <message>
        <source>tokens/s per number of draft tokens (dashed: baseline)</source>
        <translation>各草稿 token 数下的 tokens/s（虚线：基线）</translation>
    </message>
    <message>
        <source>Measures each K on two short prompts (about a minute on a laptop).</source>
        <translation>用两个简短的提示词测量每个 K（在笔记本电脑上约需一分钟）。</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>, </source>
        <comment>between the items of a list</comment>
        <translation>、</translation>
    </message>
    <message>
        <source>depth {depth} × {branching} branches</source>
        <translation>深度 {depth} × {branching} 个分支</translation>
    </message>
    <message>
        <source>Also try draft trees ({trees}); takes about twice as long</source>
        <translation>同时尝试草稿树（{trees}）；耗时约为两倍</translation>
    </message>
    <message>
        <source>Also try draft trees ({trees}). The NPU drafts trees only (a chain is a tree one branch wide), up to depth {depth} × {branching} branches and {tokens} draft tokens as compiled</source>
        <translation>同时尝试草稿树（{trees}）。NPU 只运行草稿树（链即只有一个分支的树），按编译时的限制，最大深度 {depth} × {branching} 个分支、{tokens} 个草稿 token</translation>
    </message>
    <message>
        <source>K={k}, tree {tree}</source>
        <translation>K={k}，草稿树 {tree}</translation>
    </message>
</context>
<context>
    <name>VerdictBoard</name>
    <message>
        <source>Baseline vs EAGLE-3</source>
        <translation>基线 vs EAGLE-3</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Comparison progress</source>
        <translation>对比进度</translation>
    </message>
    <message>
        <source>Baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>tokens/s</translation>
    </message>
    <message>
        <source>{speedup:.1f}× faster</source>
        <translation>速度提升至 {speedup:.1f}×</translation>
    </message>
    <message>
        <source>{speedup:.2f}× — slower</source>
        <translation>{speedup:.2f}× — 更慢</translation>
    </message>
    <message>
        <source>Too few runs to tell</source>
        <translation>运行次数太少，无法判断</translation>
    </message>
    <message>
        <source>No measurable difference</source>
        <translation>没有可测出的差异</translation>
    </message>
</context>
<context>
    <name>WindowCloser</name>
    <message>
        <source>the reply stops</source>
        <translation>回复停止</translation>
    </message>
    <message>
        <source>the speed-demo pair is built</source>
        <translation>演示模型对构建完成</translation>
    </message>
</context>
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
        <source>--conversation needs at least 1 turn.</source>
        <translation>--conversation 至少需要 1 轮。</translation>
    </message>
    <message>
        <source>--grace must be a number of seconds, 0 or more; it is {seconds}.</source>
        <translation>--grace 必须是 0 或更大的秒数；当前为 {seconds}。</translation>
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
        <source>Another program is using your conversation database ({path}: {reason}), so EagleChat cannot save right now. What you do meanwhile is kept and written as soon as it is free; nothing was moved or changed.</source>
        <translation>另一个程序正在使用你的对话数据库（{path}：{reason}），EagleChat 暂时无法保存。在此期间的操作会被保留，数据库一空闲就写入；没有移动或更改任何内容。</translation>
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
        <source>Could not read {path}: {reason}</source>
        <translation>无法读取 {path}：{reason}</translation>
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
        <source>EagleChat cannot open your conversation database {path} ({reason}). It tries again every few seconds; nothing was moved or changed. Conversations cannot be saved until then.</source>
        <translation>EagleChat 无法打开你的对话数据库 {path}（{reason}）。它会每隔几秒重试一次；没有移动或更改任何内容。在此之前无法保存对话。</translation>
    </message>
    <message>
        <source>EagleChat&apos;s converter cannot build this EAGLE-3 head ({architecture}): {problems}.</source>
        <translation>EagleChat 的转换器无法构建这个 EAGLE-3 草稿头（{architecture}）：{problems}。</translation>
    </message>
    <message>
        <source>EagleChat&apos;s converter does not know this draft: its config.json names architectures {architectures} and model type {model_type!r}; it converts Llama-type EAGLE-3 heads (LlamaForCausalLMEagle3, as AngelSlim and the EAGLE authors publish them).</source>
        <translation>EagleChat 的转换器不认识这个草稿模型：它的 config.json 写的架构是 {architectures}，模型类型是 {model_type!r}；转换器只转换 Llama 类型的 EAGLE-3 草稿头（LlamaForCausalLMEagle3，即 AngelSlim 和 EAGLE 作者发布的格式）。</translation>
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
        <source>Exporting the draft with {tool} failed: {detail}</source>
        <translation>用 {tool} 导出草稿模型失败：{detail}</translation>
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
        <source>No model is loaded yet.</source>
        <translation>尚未加载模型。</translation>
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
        <source>No prompts to take the user turns from.</source>
        <translation>没有可用作用户轮次的提示词。</translation>
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
        <source>Speculation &apos;{asked}&apos; is not available with the loaded model; it offers {methods}.</source>
        <translation>已加载的模型不支持推测方式“{asked}”；可用的方式：{methods}。</translation>
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
        <source>The EAGLE-3 head has a {draft}-token draft vocabulary but no d2t map to the target&apos;s {vocab} tokens.</source>
        <translation>这个 EAGLE-3 草稿头的草稿词表有 {draft} 个词元，但没有映射到目标模型 {vocab} 个词元的 d2t 表。</translation>
    </message>
    <message>
        <source>The EAGLE-3 head has no tensor {name} (it has: {names}).</source>
        <translation>这个 EAGLE-3 草稿头没有张量 {name}（它有：{names}）。</translation>
    </message>
    <message>
        <source>The EAGLE-3 head in {head_dir} has no readable config.json ({error}).</source>
        <translation>{head_dir} 中的 EAGLE-3 草稿头没有可读取的 config.json（{error}）。</translation>
    </message>
    <message>
        <source>The EAGLE-3 head in {head_dir} has no weights (no *.safetensors or pytorch_model.bin).</source>
        <translation>{head_dir} 中的 EAGLE-3 草稿头没有权重（没有 *.safetensors 或 pytorch_model.bin）。</translation>
    </message>
    <message>
        <source>The EAGLE-3 head&apos;s attention shape ({heads} heads, {kv} key/value heads, head size {dim}) is not one the converter builds.</source>
        <translation>这个 EAGLE-3 草稿头的注意力形状（{heads} 个头、{kv} 个键/值头、头大小 {dim}）不是转换器能构建的。</translation>
    </message>
    <message>
        <source>The EAGLE-3 head&apos;s d2t has shape {found}; its config.json implies [{draft}].</source>
        <translation>这个 EAGLE-3 草稿头的 d2t 形状是 {found}；按它的 config.json 应为 [{draft}]。</translation>
    </message>
    <message>
        <source>The EAGLE-3 head&apos;s {name} has shape {found}; its config.json implies {shape}.</source>
        <translation>这个 EAGLE-3 草稿头的 {name} 形状是 {found}；按它的 config.json 应为 {shape}。</translation>
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
        <source>The document passages of message {place} cannot be read.</source>
        <translation>无法读取第 {place} 条消息的文档段落。</translation>
    </message>
    <message>
        <source>The documents index was built with the embedding model {known}, not {wanted}; use that one (--embedder DIR), or remove the documents (`eagle-chat docs remove --all`) to index them again with the new one.</source>
        <translation>文档索引是用嵌入模型 {known} 建立的，而不是 {wanted}；请使用该模型（--embedder DIR），或先移除这些文档（`eagle-chat docs remove --all`），再用新模型重新索引。</translation>
    </message>
    <message>
        <source>The documents index {path} was written by a newer EagleChat.</source>
        <translation>文档索引 {path} 由更新版本的 EagleChat 写入。</translation>
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
        <source>The draft-free reference pipeline is not loaded.</source>
        <translation>未加载无草稿的参考流水线。</translation>
    </message>
    <message>
        <source>The embedding model failed: {reason}</source>
        <translation>嵌入模型出错：{reason}</translation>
    </message>
    <message>
        <source>The embedding model gave vectors that are not numbers; the files look damaged.</source>
        <translation>嵌入模型输出的向量不是有效数字；模型文件似乎已损坏。</translation>
    </message>
    <message>
        <source>The embedding model in {path} cannot be loaded: {reason}</source>
        <translation>无法加载 {path} 中的嵌入模型：{reason}</translation>
    </message>
    <message>
        <source>The embedding model in {path} did not load within {seconds} s.</source>
        <translation>{path} 中的嵌入模型未能在 {seconds} 秒内加载完成。</translation>
    </message>
    <message>
        <source>The embedding process ended unexpectedly.</source>
        <translation>嵌入进程意外结束。</translation>
    </message>
    <message>
        <source>The embedding process for {path} ended while loading.</source>
        <translation>{path} 的嵌入进程在加载时结束了。</translation>
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
        <source>The file is not an EagleChat JSON export: it stops being valid JSON at line {line}, column {column}.</source>
        <translation>该文件不是 EagleChat 的 JSON 导出：它在第 {line} 行第 {column} 列处不再是有效的 JSON。</translation>
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
        <source>The model {name} is not downloaded yet: `eagle-chat models pull {name}` gets it.</source>
        <translation>模型 {name} 尚未下载：运行 `eagle-chat models pull {name}` 即可获取。</translation>
    </message>
    <message>
        <source>The model {name} is registered but its folder {path} is gone; pull it again with `eagle-chat models pull {name}`.</source>
        <translation>模型 {name} 已登记，但其文件夹 {path} 不见了；请用 `eagle-chat models pull {name}` 重新下载。</translation>
    </message>
    <message>
        <source>The number of assistant tokens must be between {lowest} and {highest} on {device} (got {k}).</source>
        <translation>在 {device} 上，草稿 token 数必须在 {lowest} 到 {highest} 之间（当前为 {k}）。</translation>
    </message>
    <message>
        <source>The older copy in {folder} cannot be replaced now ({error}); it is unchanged and the download is kept. A program may have a file in it open — on Windows, a loaded model: unload it or close EagleChat, then pull again.</source>
        <translation>{folder} 中的旧副本现在无法替换（{error}）；它保持不变，下载的文件也已保留。可能有程序正打开其中的文件——在 Windows 上即已加载的模型：请卸载该模型或关闭 EagleChat，然后重新拉取。</translation>
    </message>
    <message>
        <source>The reply ran out of KV cache; lower max new tokens.</source>
        <translation>回复用尽了 KV 缓存；请降低最大新 token 数。</translation>
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
        <source>The reranker failed: {reason}</source>
        <translation>重排序模型运行失败：{reason}</translation>
    </message>
    <message>
        <source>The reranker gave no usable scores; the files look damaged.</source>
        <translation>重排序模型没有给出可用的分数；模型文件似乎已损坏。</translation>
    </message>
    <message>
        <source>The reranker in {path} cannot be loaded: {reason}</source>
        <translation>无法加载 {path} 中的重排序模型：{reason}</translation>
    </message>
    <message>
        <source>The reranker process ended unexpectedly.</source>
        <translation>重排序进程意外结束。</translation>
    </message>
    <message>
        <source>The server &quot;{name}&quot; in {path} has &quot;args&quot;, &quot;env&quot;, &quot;headers&quot; or &quot;autoApprove&quot; of the wrong kind (lists and objects of text).</source>
        <translation>{path} 中的服务器“{name}”的 &quot;args&quot;、&quot;env&quot;、&quot;headers&quot; 或 &quot;autoApprove&quot; 类型不对（应为文本的列表和对象）。</translation>
    </message>
    <message>
        <source>The server &quot;{name}&quot; in {path} has a &quot;command&quot; that is not text.</source>
        <translation>{path} 中的服务器“{name}”的 &quot;command&quot; 不是文本。</translation>
    </message>
    <message>
        <source>The server &quot;{name}&quot; in {path} has a &quot;url&quot; that is not http:// or https://.</source>
        <translation>{path} 中的服务器“{name}”的 &quot;url&quot; 不是 http:// 或 https:// 地址。</translation>
    </message>
    <message>
        <source>The server &quot;{name}&quot; in {path} is not an object.</source>
        <translation>{path} 中的服务器“{name}”不是一个对象。</translation>
    </message>
    <message>
        <source>The server &quot;{name}&quot; in {path} needs either &quot;command&quot; (a program to start) or &quot;url&quot; (a Streamable HTTP endpoint), not both or neither.</source>
        <translation>{path} 中的服务器“{name}”需要 &quot;command&quot;（要启动的程序）或 &quot;url&quot;（Streamable HTTP 端点）二者之一，不能同时有或都没有。</translation>
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
        <source>The standalone EagleChat does not include optimum-intel. Export the draft with a Python that has optimum-intel: {command} — then add the pair with `eagle-chat models import TARGET_DIR DRAFT_DIR`.</source>
        <translation>独立版 EagleChat 不含 optimum-intel。请用装有 optimum-intel 的 Python 导出草稿模型：{command} — 然后用 `eagle-chat models import TARGET_DIR DRAFT_DIR` 添加这对模型。</translation>
    </message>
    <message>
        <source>The stats of message {place} cannot be read ({error}).</source>
        <translation>无法读取消息 {place} 的统计数据（{error}）。</translation>
    </message>
    <message>
        <source>The test run of the downloaded model in {folder} failed: {detail} The files are kept but not registered; use the folder directly (--embedder DIR / --rerank DIR) or delete it with `eagle-chat models remove {name}`.</source>
        <translation>对 {folder} 中已下载模型的试运行失败：{detail} 文件已保留但未登记；可以直接使用该文件夹（--embedder DIR / --rerank DIR），或用 `eagle-chat models remove {name}` 删除。</translation>
    </message>
    <message>
        <source>The test run of the downloaded pair failed: {detail} The files are kept but not registered: register them anyway with `eagle-chat models import {target_dir} {draft_dir} --name {name}`, or delete them with `eagle-chat models remove {name}`.</source>
        <translation>下载的模型对试运行失败：{detail} 文件已保留但未注册：仍可用 `eagle-chat models import {target_dir} {draft_dir} --name {name}` 注册，或用 `eagle-chat models remove {name}` 删除。</translation>
    </message>
    <message>
        <source>The tool steps of message {place} cannot be read.</source>
        <translation>无法读取第 {place} 条消息的工具步骤。</translation>
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
        <source>There is no embedding model folder {path}.</source>
        <translation>嵌入模型文件夹 {path} 不存在。</translation>
    </message>
    <message>
        <source>There is no model of kind {kind} or folder called {name}. Known: {known}.</source>
        <translation>没有名为 {name} 的 {kind} 类模型或文件夹。已知的有：{known}。</translation>
    </message>
    <message>
        <source>There is no server &quot;{name}&quot; in {path}.</source>
        <translation>{path} 中没有服务器“{name}”。</translation>
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
        <source>This is a Markdown export, which is for reading: only a JSON export can be imported (Export conversation, then JSON, every branch).</source>
        <translation>这是 Markdown 导出，仅供阅读：只能导入 JSON 导出（导出对话，然后选择 JSON，包含所有分支）。</translation>
    </message>
    <message>
        <source>This message is {tokens} tokens long; with room for a reply the model takes at most {limit}. Shorten the message.</source>
        <translation>此消息长 {tokens} 个 token；为回复留出空间后，模型最多接受 {limit} 个。请缩短消息。</translation>
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
        <source>Your conversation database {path} is damaged ({reason}) and could not be set aside ({move_error}); it was left exactly as it is. Close any program that uses it and restart EagleChat.</source>
        <translation>你的对话数据库 {path} 已损坏（{reason}），且无法移到一旁（{move_error}）；它保持原样未动。请关闭正在使用它的程序，然后重新启动 EagleChat。</translation>
    </message>
    <message>
        <source>{error} The standalone EagleChat cannot try optimum-intel instead. Export the draft with a Python that has optimum-intel: {command} — then add the pair with `eagle-chat models import TARGET_DIR DRAFT_DIR`.</source>
        <translation>{error} 独立版 EagleChat 无法改用 optimum-intel。请用装有 optimum-intel 的 Python 导出草稿模型：{command} — 然后用 `eagle-chat models import TARGET_DIR DRAFT_DIR` 添加这对模型。</translation>
    </message>
    <message>
        <source>{error} optimum-intel, which could try it instead, is not installed.</source>
        <translation>{error} 可以改用的 optimum-intel 没有安装。</translation>
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
        <source>{name} is a model of kind {other}; a model of kind {kind} is needed here.</source>
        <translation>{name} 是 {other} 类模型；这里需要 {kind} 类模型。</translation>
    </message>
    <message>
        <source>{name} must be a number of seconds above 0; it is {seconds}.</source>
        <translation>{name} 必须是大于 0 的秒数；当前为 {seconds}。</translation>
    </message>
    <message>
        <source>{name} was not removed: {folder} cannot be deleted now ({error}). A program may have a file in it open — on Windows, a loaded model: unload it or close EagleChat, then try again.</source>
        <translation>{name} 未被移除：{folder} 现在无法删除（{error}）。可能有程序正打开其中的文件——在 Windows 上即已加载的模型：请卸载该模型或关闭 EagleChat，然后重试。</translation>
    </message>
    <message>
        <source>{pair_name} is already installed. Remove it first with `eagle-chat models remove {pair_name}` to download it again.</source>
        <translation>{pair_name} 已安装。如需重新下载，请先用 `eagle-chat models remove {pair_name}` 删除它。</translation>
    </message>
    <message>
        <source>{path} cannot be read: {reason}</source>
        <translation>无法读取 {path}：{reason}</translation>
    </message>
    <message>
        <source>{path} does not contain text (it looks like a binary file with a text file&apos;s name).</source>
        <translation>{path} 不包含文本（看起来是一个使用了文本文件名的二进制文件）。</translation>
    </message>
    <message>
        <source>{path} does not exist.</source>
        <translation>{path} 不存在。</translation>
    </message>
    <message>
        <source>{path} does not hold a state dict.</source>
        <translation>{path} 中没有 state dict。</translation>
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
        <source>{path} has no text to index (a scanned PDF or an empty file?).</source>
        <translation>{path} 中没有可索引的文本（是扫描版 PDF 还是空文件？）。</translation>
    </message>
    <message>
        <source>{path} holds an EAGLE-3 draft head, not a full model. Choose it as the draft and pick the matching target model (for example an OpenVINO int4 Qwen3) as the model.</source>
        <translation>{path} 是 EAGLE-3 草稿头，不是完整模型。请把它选作草稿模型，并选择与之匹配的主模型（例如 OpenVINO int4 Qwen3）。</translation>
    </message>
    <message>
        <source>{path} is a legacy (pre-zip) PyTorch file, which the converter does not read.</source>
        <translation>{path} 是旧式（zip 之前的）PyTorch 文件，转换器不读取这种文件。</translation>
    </message>
    <message>
        <source>{path} is an encrypted PDF (it needs a password); EagleChat cannot read it.</source>
        <translation>{path} 是加密的 PDF（需要密码），EagleChat 无法读取。</translation>
    </message>
    <message>
        <source>{path} is not a PyTorch state dict (no data.pkl).</source>
        <translation>{path} 不是 PyTorch state dict（没有 data.pkl）。</translation>
    </message>
    <message>
        <source>{path} is not a kind of file EagleChat can read (text, Markdown, source code, HTML, PDF, DOCX).</source>
        <translation>{path} 不是 EagleChat 能读取的文件类型（文本、Markdown、源代码、HTML、PDF、DOCX）。</translation>
    </message>
    <message>
        <source>{path} is not a readable DOCX (damaged, encrypted or not a Word document).</source>
        <translation>{path} 不是可读取的 DOCX（已损坏、已加密或不是 Word 文档）。</translation>
    </message>
    <message>
        <source>{path} is not a readable PDF (damaged or not a PDF at all).</source>
        <translation>{path} 不是可读取的 PDF（已损坏或根本不是 PDF）。</translation>
    </message>
    <message>
        <source>{path} is not an EAGLE-3 draft: its IR has no &apos;eagle3_mode&apos; marker and its config.json architectures are {architectures}. Export an EAGLE-3 head with {command}</source>
        <translation>{path} 不是 EAGLE-3 草稿模型：它的 IR 中没有 &apos;eagle3_mode&apos; 标记，config.json 中的架构为 {architectures}。请用以下命令导出 EAGLE-3 草稿头：{command}</translation>
    </message>
    <message>
        <source>{path} is not valid JSON (line {line}): fix or remove it.</source>
        <translation>{path} 不是有效的 JSON（第 {line} 行）：请修正或删除它。</translation>
    </message>
    <message>
        <source>{path} is too large to index ({size_mb} MB; the limit is {limit_mb} MB).</source>
        <translation>{path} 太大，无法索引（{size_mb} MB；上限为 {limit_mb} MB）。</translation>
    </message>
    <message>
        <source>{path} needs an object &quot;mcpServers&quot; with one entry per server.</source>
        <translation>{path} 需要一个 &quot;mcpServers&quot; 对象，每个服务器一项。</translation>
    </message>
    <message>
        <source>{path} no longer exists.</source>
        <translation>{path} 已不存在。</translation>
    </message>
    <message>
        <source>{path}: tensor {name} has type {dtype}, which the converter does not read.</source>
        <translation>{path}：张量 {name} 的类型是 {dtype}，转换器不读取这种类型。</translation>
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
        <source>{title} is not available on {source}: the catalog names no {source} repository for it. Use {others} instead.</source>
        <translation>{source} 上没有 {title}：模型目录没有列出它在 {source} 上的仓库。请改用 {others}。</translation>
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
        <source>{where}: &apos;kind&apos; is one of {kinds}, not {kind!r}.</source>
        <translation>{where}：&apos;kind&apos; 必须是 {kinds} 之一，而不是 {kind!r}。</translation>
    </message>
    <message>
        <source>{where}: &apos;max_length&apos; is a number of tokens from 8 to 131072.</source>
        <translation>{where}：&apos;max_length&apos; 是 8 到 131072 之间的词元数。</translation>
    </message>
    <message>
        <source>{where}: &apos;pooling&apos; is one of {poolings}.</source>
        <translation>{where}：&apos;pooling&apos; 必须是 {poolings} 之一。</translation>
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
<context>
    <name>demo_texts</name>
    <message>
        <source>&amp;Load it</source>
        <translation>加载(&amp;L)</translation>
    </message>
    <message>
        <source>Use the s&amp;peed-demo pair</source>
        <translation>使用演示模型对(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Tune now</source>
        <translation>立即调优(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Warm up</source>
        <translation>预热(&amp;W)</translation>
    </message>
    <message>
        <source>Building the speed-demo pair (a few seconds; the chat keeps working)…</source>
        <translation>正在构建演示模型对（只需几秒，对话照常可用）…</translation>
    </message>
    <message>
        <source>Speed-demo pair built; it loads as soon as the reply in progress has finished…</source>
        <translation>演示模型对已构建；当前回复结束后即加载…</translation>
    </message>
    <message>
        <source>Loading the speed-demo pair at f32, where both modes&apos; answers are identical…</source>
        <translation>正在以 f32 加载演示模型对（此精度下两种模式的回答完全相同）…</translation>
    </message>
    <message>
        <source>Tuning the draft tokens for this machine (a short sweep from K=3)…</source>
        <translation>正在为本机调优草稿 token 数（从 K=3 开始的简短扫描）…</translation>
    </message>
    <message>
        <source>Speed-demo pair ready: running the comparison…</source>
        <translation>演示模型对已就绪：正在运行对比…</translation>
    </message>
    <message>
        <source>baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <source>This ×{speedup:.1f} is not dependable: the bundled tiny pair is so cheap per token that overhead decides it from run to run, and the next run may show none; the speed-demo pair is built to show it.</source>
        <translation>这个 ×{speedup:.1f} 并不可靠：内置的微型模型对每个 token 的开销极低，每次运行的结果由额外开销决定，下一次运行可能毫无加速；演示模型对正是为展示加速而构建的。</translation>
    </message>
    <message>
        <source>The bundled tiny pair is too small for a dependable EAGLE-3 speed-up on a CPU (it is so cheap per token that overhead decides it from run to run); the speed-demo pair is built to show it.</source>
        <translation>内置的微型模型对太小，无法在 CPU 上稳定体现 EAGLE-3 的加速（每个 token 的开销极低，每次运行的结果由额外开销决定）；演示模型对正是为展示加速而构建的。</translation>
    </message>
    <message>
        <source>{pair} has no EAGLE-3 draft, so there is nothing to compare; the speed-demo pair has one.</source>
        <translation>{pair} 没有 EAGLE-3 草稿模型，无可对比；演示模型对带有草稿模型。</translation>
    </message>
    <message>
        <source>Even the speed-demo pair measured only ×{speedup:.2f} here: other programs are probably using the CPU (Demo ▸ Pre-flight check names them).</source>
        <translation>即使是演示模型对，在本机也只测得 ×{speedup:.2f}：可能有其他程序占用 CPU（“演示 ▸ 演示前检查”会列出它们）。</translation>
    </message>
    <message>
        <source>{pair} measured ×{speedup:.2f} on this machine, under the ×{showable:.1f} worth showing; the speed-demo pair shows the speed-up.</source>
        <translation>{pair} 在本机测得 ×{speedup:.2f}，低于值得展示的 ×{showable:.1f}；演示模型对能展示加速。</translation>
    </message>
    <message>
        <source>{pair} loaded on {device} with its EAGLE-3 draft.</source>
        <translation>{pair} 已连同其 EAGLE-3 草稿模型加载到 {device}。</translation>
    </message>
    <message>
        <source>{pair} has no EAGLE-3 draft: use the speed-demo pair (or pick a pair under Models).</source>
        <translation>{pair} 没有 EAGLE-3 草稿模型：请使用演示模型对（或在“模型”下选择一个模型对）。</translation>
    </message>
    <message>
        <source>{pair} is not loaded yet: load it on {device}.</source>
        <translation>{pair} 尚未加载：请将其加载到 {device}。</translation>
    </message>
    <message>
        <source>The loaded model is not {pair} on {device}: load it.</source>
        <translation>已加载的模型不是 {device} 上的 {pair}：请加载它。</translation>
    </message>
    <message>
        <source>This pair measured ×{speedup:.2f} here at {precision} precision.</source>
        <translation>该模型对在本机以 {precision} 精度测得 ×{speedup:.2f}。</translation>
    </message>
    <message>
        <source>The bundled tiny pair is too small for a dependable speed-up: use the speed-demo pair.</source>
        <translation>内置的微型模型对太小，无法稳定体现加速：请使用演示模型对。</translation>
    </message>
    <message>
        <source>Without a draft there is no speed-up to show: use the speed-demo pair.</source>
        <translation>没有草稿模型就没有可展示的加速：请使用演示模型对。</translation>
    </message>
    <message>
        <source>Not measured on this machine yet: a short tune measures it.</source>
        <translation>尚未在本机测量：一次简短的调优即可测出。</translation>
    </message>
    <message>
        <source>The speed-demo pair measured only ×{speedup:.2f}: free the CPU (see below) and measure again.</source>
        <translation>演示模型对只测得 ×{speedup:.2f}：请释放 CPU（见下文）后重新测量。</translation>
    </message>
    <message>
        <source>This pair measured only ×{speedup:.2f} here: use the speed-demo pair.</source>
        <translation>该模型对在本机只测得 ×{speedup:.2f}：请使用演示模型对。</translation>
    </message>
    <message>
        <source>K={k}, draft tree {tree}</source>
        <translation>K={k}，草稿树 {tree}</translation>
    </message>
    <message>
        <source>Draft tokens tuned for {device}: {what}.</source>
        <translation>草稿 token 数已针对 {device} 调优：{what}。</translation>
    </message>
    <message>
        <source>Nothing to tune without an EAGLE-3 draft.</source>
        <translation>没有 EAGLE-3 草稿模型，无需调优。</translation>
    </message>
    <message>
        <source>Draft tokens not tuned for {device} yet: a short tune takes a few seconds on small models.</source>
        <translation>草稿 token 数尚未针对 {device} 调优：小模型的简短调优只需几秒。</translation>
    </message>
    <message>
        <source>Both modes warmed up since the load: the first reply is as fast as the tenth.</source>
        <translation>加载后两种模式均已预热：第一条回复与第十条一样快。</translation>
    </message>
    <message>
        <source>Load the model first; then both modes are warmed up.</source>
        <translation>请先加载模型，之后两种模式都会预热。</translation>
    </message>
    <message>
        <source>{earlier} and {more}</source>
        <translation>{earlier}和{more}</translation>
    </message>
    <message>
        <source>Not warmed up yet: {modes} still pay their first-run cost.</source>
        <translation>尚未预热：{modes} 仍有首次运行的额外开销。</translation>
    </message>
    <message>
        <source>No compiled-model cache is set: every start compiles the model afresh.</source>
        <translation>未设置已编译模型缓存：每次启动都要重新编译模型。</translation>
    </message>
    <message>
        <source>The load left no compiled blobs in the cache: this device compiles the model at every start.</source>
        <translation>此次加载未在缓存中留下已编译的 blob：该设备每次启动都会编译模型。</translation>
    </message>
    <message>
        <source>No compiled blobs in the cache yet: load the model once and the next start is faster.</source>
        <translation>缓存中还没有已编译的 blob：加载一次模型，下次启动会更快。</translation>
    </message>
    <message numerus="yes">
        <source> This load took {seconds:.1f} s, compiling and caching %n blob(s): the next start reads them.</source>
        <translation>
            <numerusform>本次加载用时 {seconds:.1f} 秒，编译并缓存了 %n 个 blob：下次启动将直接读取。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, compiling and caching %n blob(s): the next start reads them.</source>
        <translation>
            <numerusform>编译并缓存了 %n 个 blob：下次启动将直接读取。</numerusform>
        </translation>
    </message>
    <message>
        <source> This load took {seconds:.1f} s, from the cache.</source>
        <translation>本次加载用时 {seconds:.1f} 秒，读自缓存。</translation>
    </message>
    <message numerus="yes">
        <source>Compiled-model cache in place (%n blob(s), {size}).{origin}</source>
        <translation>
            <numerusform>已编译模型缓存就绪（%n 个 blob，{size}）。{origin}</numerusform>
        </translation>
    </message>
    <message>
        <source>On mains power.</source>
        <translation>正在使用电源供电。</translation>
    </message>
    <message>
        <source>No battery (mains power).</source>
        <translation>无电池（电源供电）。</translation>
    </message>
    <message>
        <source>On battery ({percent:.0f} %): the CPU may be throttled — plug in the charger.</source>
        <translation>正在使用电池（{percent:.0f} %）：CPU 可能降频——请接上充电器。</translation>
    </message>
    <message>
        <source>On battery: the CPU may be throttled — plug in the charger.</source>
        <translation>正在使用电池：CPU 可能降频——请接上充电器。</translation>
    </message>
    <message>
        <source>Power source unknown (no battery information here): if this is a laptop, plug it in.</source>
        <translation>电源未知（此处无电池信息）：如果这是笔记本电脑，请接上电源。</translation>
    </message>
    <message>
        <source>CPU load from other programs unknown on this system: close what you do not need.</source>
        <translation>无法得知本系统上其他程序的 CPU 负载：请关闭不需要的程序。</translation>
    </message>
    <message>
        <source>Other programs use {share:.0%} of the CPU.</source>
        <translation>其他程序占用 {share:.0%} 的 CPU。</translation>
    </message>
    <message>
        <source>{program} {share:.0%} of a core</source>
        <translation>{program} 占一个核心的 {share:.0%}</translation>
    </message>
    <message>
        <source>Other programs keep the CPU {share:.0%} busy ({top}): close them — the speed-up needs free cores.</source>
        <translation>其他程序使 CPU 保持 {share:.0%} 繁忙（{top}）：请关闭它们——加速需要空闲的核心。</translation>
    </message>
    <message>
        <source>Other programs keep the CPU {share:.0%} busy: close them — the speed-up needs free cores.</source>
        <translation>其他程序使 CPU 保持 {share:.0%} 繁忙：请关闭它们——加速需要空闲的核心。</translation>
    </message>
    <message>
        <source>Screen size unknown.</source>
        <translation>屏幕尺寸未知。</translation>
    </message>
    <message>
        <source>Screen {width}×{height}: the large type fits.</source>
        <translation>屏幕 {width}×{height}：大字号可以完整显示。</translation>
    </message>
    <message>
        <source>Screen {width}×{height} is smaller than the large type needs ({need_width}×{need_height}): use a larger display or lower the display scaling.</source>
        <translation>屏幕 {width}×{height} 小于大字号所需的尺寸（{need_width}×{need_height}）：请使用更大的显示器或降低显示缩放。</translation>
    </message>
</context>
<context>
    <name>exporters</name>
    <message>
        <source>Export this conversation&apos;s stats to…</source>
        <translation>将此对话的统计数据导出到…</translation>
    </message>
    <message>
        <source>The stats could not be exported to {folder} ({reason}); choose a folder you can write to.</source>
        <translation>无法将统计数据导出到 {folder}（{reason}）；请选择一个可写入的文件夹。</translation>
    </message>
    <message>
        <source>Exported {files}</source>
        <translation>已导出 {files}</translation>
    </message>
</context>
<context>
    <name>grammar_texts</name>
    <message>
        <source>Next reply: its tool call decodes without drafting — tool use “Required” holds that step to a grammar, and OpenVINO GenAI cannot draft under a grammar with this reduced-vocabulary (d2t) draft. The steps after the call draft with K={k}.</source>
        <translation>下一条回复：其中的工具调用不使用草稿解码——工具调用设为“必须调用”时，这一步受语法约束，而 OpenVINO GenAI 无法在语法约束下使用此缩减词表（d2t）草稿模型。调用之后的步骤照常使用草稿（K={k}）。</translation>
    </message>
    <message>
        <source>Next reply: plain decoding — a grammar holds the reply, and OpenVINO GenAI cannot draft under a grammar with this reduced-vocabulary (d2t) draft.</source>
        <translation>下一条回复：普通解码——回复受语法约束，而 OpenVINO GenAI 无法在语法约束下使用此缩减词表（d2t）草稿模型。</translation>
    </message>
    <message>
        <source>grammar: drafting off (reduced-vocabulary draft)</source>
        <translation>语法约束：草稿已关闭（缩减词表草稿模型）</translation>
    </message>
</context>
<context>
    <name>markdown_html</name>
    <message>
        <source>Copy code</source>
        <translation>复制代码</translation>
    </message>
    <message>
        <source>code</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>image</source>
        <translation>图片</translation>
    </message>
    <message>
        <source>[image not loaded: {alt} — {src}]</source>
        <translation>[未加载图片：{alt} — {src}]</translation>
    </message>
</context>
<context>
    <name>menus</name>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Compare baseline vs EAGLE-3</source>
        <translation>对比基线与 EAGLE-3</translation>
    </message>
    <message>
        <source>&amp;Demo</source>
        <translation>演示(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Prepare the demo (pre-flight check)…</source>
        <translation>准备演示（演示前检查）(&amp;P)…</translation>
    </message>
    <message>
        <source>&amp;Full-screen comparison</source>
        <translation>全屏对比(&amp;F)</translation>
    </message>
    <message>
        <source>Use the &amp;speed-demo pair (build, load at f32, tune)</source>
        <translation>使用演示模型对（构建、以 f32 加载、调优）(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Conversation</source>
        <translation>对话(&amp;C)</translation>
    </message>
    <message>
        <source>New conversation</source>
        <translation>新建对话</translation>
    </message>
    <message>
        <source>Export stats (CSV, JSON) and chart (PNG)…</source>
        <translation>导出统计（CSV、JSON）和图表（PNG）…</translation>
    </message>
    <message>
        <source>&amp;Tools (MCP servers)…</source>
        <translation>工具（MCP 服务器）(&amp;T)…</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About EagleChat</source>
        <translation>关于 EagleChat(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>The new language applies when EagleChat starts again.</source>
        <translation>新语言将在 EagleChat 下次启动时生效。</translation>
    </message>
    <message>
        <source>Restart now</source>
        <translation>立即重新启动</translation>
    </message>
</context>
<context>
    <name>message_links</name>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Generate</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>Answer this message (Ctrl+R)</source>
        <translation>回答这条消息（Ctrl+R）</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <source>Edit and send again; the current version is kept</source>
        <translation>编辑后重新发送；当前版本会保留</translation>
    </message>
    <message>
        <source>Same as version {n}: greedy decoding gives the same answer every time</source>
        <translation>与第 {n} 版相同：贪心解码每次都给出同样的回答</translation>
    </message>
    <message>
        <source>Get a different answer…</source>
        <translation>换一个回答…</translation>
    </message>
    <message>
        <source>Regenerate with sampling, or see why it repeats</source>
        <translation>用采样重新生成，或查看为何重复</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <source>Ask again; this reply is kept beside the new one</source>
        <translation>重新生成；这条回复会与新回复并存</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Let the model go on from where it stopped</source>
        <translation>让模型从中断处继续</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Delete this message and what follows it</source>
        <translation>删除这条消息及其后的内容</translation>
    </message>
    <message>
        <source>Previous version</source>
        <translation>上一版本</translation>
    </message>
    <message>
        <source>Next version</source>
        <translation>下一版本</translation>
    </message>
</context>
<context>
    <name>message_parts</name>
    <message>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>interrupted — the app or its engine stopped before this reply finished</source>
        <translation>已中断 — 应用或其引擎在此回复完成前停止</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>writing…</source>
        <translation>正在写…</translation>
    </message>
    <message>
        <source>speculative</source>
        <translation>投机解码</translation>
    </message>
    <message>
        <source>baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <source>Earlier messages are not sent to the model</source>
        <translation>更早的消息不会发送给模型</translation>
    </message>
    <message>
        <source>Type a message below and press {enter} ({shift_enter} for a new line, {esc} stops a reply).</source>
        <translation>在下方输入消息并按 {enter}（{shift_enter} 换行，{esc} 停止回复）。</translation>
    </message>
    <message>
        <source>Open link?</source>
        <translation>打开链接？</translation>
    </message>
    <message>
        <source>The model&apos;s reply links to:

{target}

Open it in your browser?</source>
        <translation>模型的回复链接到：

{target}

要在浏览器中打开吗？</translation>
    </message>
    <message>
        <source>{mode} (K={k})</source>
        <translation>{mode}（K={k}）</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>tok/s</translation>
    </message>
    <message>
        <source>Time to first token</source>
        <translation>首 token 延迟（TTFT）</translation>
    </message>
    <message>
        <source>{ms:.0f} ms</source>
        <translation>{ms:.0f} ms</translation>
    </message>
    <message>
        <source>Time per token</source>
        <translation>每 token 耗时</translation>
    </message>
    <message>
        <source>{ms:.2f} ms</source>
        <translation>{ms:.2f} ms</translation>
    </message>
    <message>
        <source>Generated / prompt tokens</source>
        <translation>生成 / 提示词 token</translation>
    </message>
    <message>
        <source>Thinking / answer tokens</source>
        <translation>思考 / 回答 token</translation>
    </message>
    <message>
        <source>Accepted / drafted</source>
        <translation>接受 / 草稿</translation>
    </message>
    <message>
        <source>Acceptance</source>
        <translation>接受率</translation>
    </message>
    <message>
        <source>Tokens per step</source>
        <translation>每验证步 token 数</translation>
    </message>
    <message>
        <source>{label}: {value}</source>
        <comment>a row of the reply&apos;s statistics tooltip</comment>
        <translation>{label}：{value}</translation>
    </message>
</context>
<context>
    <name>method_texts</name>
    <message>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>Prompt lookup</source>
        <translation>提示查找</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>prompt lookup</source>
        <translation>提示查找</translation>
    </message>
    <message>
        <source>baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <source>How the next reply speculates. Automatic chooses per kind of work (EAGLE-3 for free writing, prompt lookup for replies that repeat pasted code, documents or tool results); a method chosen here is used for every reply. Off is the same as the EAGLE-3 button switched off.</source>
        <translation>下一条回复如何投机解码。“自动”按工作类型选择（自由写作用 EAGLE-3，重复粘贴的代码、文档或工具结果的回复用提示查找）；在此选定的方式用于每一条回复。“关闭”等同于关闭 EAGLE-3 按钮。</translation>
    </message>
    <message>
        <source>Next reply: plain decoding (pinned) — Speculation is set to Off.</source>
        <translation>下一条回复：普通解码（已固定）——投机方式设为“关闭”。</translation>
    </message>
    <message>
        <source>a draft tree {depth} deep × {branching} wide, K={k}</source>
        <translation>深度 {depth} × 分支数 {branching} 的草稿树，K={k}</translation>
    </message>
    <message>
        <source>Next reply: {method} (pinned), {how} — set under Speculation; Automatic would choose per kind of work.</source>
        <translation>下一条回复：{method}（已固定），{how}——在“投机方式”中设定；“自动”会按工作类型选择。</translation>
    </message>
    <message>
        <source>free writing</source>
        <translation>自由写作</translation>
    </message>
    <message>
        <source>writing new code</source>
        <translation>编写新代码</translation>
    </message>
    <message>
        <source>this answer repeats the code you pasted</source>
        <translation>这个回答会重复你粘贴的代码</translation>
    </message>
    <message>
        <source>this answer quotes your documents</source>
        <translation>这个回答会引用你的文档</translation>
    </message>
    <message>
        <source>this step reads tool results</source>
        <translation>这一步会读取工具结果</translation>
    </message>
    <message>
        <source>Chinese writing</source>
        <translation>中文写作</translation>
    </message>
    <message>
        <source>Next reply: {method}, {how} — {kind}: {per_step} tokens/step over the last {n} such replies here.</source>
        <translation>下一条回复：{method}，{how} — {kind}：本机最近 {n} 条此类回复平均每步 {per_step} 个 token。</translation>
    </message>
    <message>
        <source>Next reply: {method}, {how} — this conversation&apos;s replies copy their prompts ({share} % of their phrases).</source>
        <translation>下一条回复：{method}，{how} — 这个对话的回复会照抄提示内容（{share}% 的短语）。</translation>
    </message>
    <message>
        <source>Next reply: {method}, {how} — {kind}; the other method drafted only {per_step} tokens/step over the last {n} such replies here, so Automatic tries this one.</source>
        <translation>下一条回复：{method}，{how} — {kind}；另一种方法在本机最近 {n} 条此类回复中每步只起草 {per_step} 个 token，所以“自动”改试这一种。</translation>
    </message>
    <message>
        <source>Next reply: {method}, {how} — {kind}; Automatic&apos;s first choice for such work until replies of it are measured here.</source>
        <translation>下一条回复：{method}，{how} — {kind}；在本机测得此类回复之前，这是“自动”对这类工作的首选。</translation>
    </message>
    <message>
        <source>The loaded model does not offer {method}: Speculation is back to Automatic.</source>
        <translation>已加载的模型不提供{method}：投机方式已恢复为“自动”。</translation>
    </message>
</context>
<context>
    <name>texts</name>
    <message>
        <source>toy-quality bundled pair</source>
        <translation>内置的玩具级模型对</translation>
    </message>
    <message>
        <source>Turn prefix caching off</source>
        <translation>关闭前缀缓存</translation>
    </message>
    <message>
        <source>Earlier messages are not sent to the model</source>
        <translation>更早的消息不会发送给模型</translation>
    </message>
    <message>
        <source>the toy model widened to ~50M weights: same replies, real speed-up</source>
        <translation>将玩具模型加宽到约 50M 权重：回复相同，加速真实</translation>
    </message>
    <message>
        <source>speculative</source>
        <translation>投机解码</translation>
    </message>
    <message>
        <source>baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <source>remote</source>
        <translation>远程</translation>
    </message>
    <message>
        <source>prompt lookup</source>
        <translation>提示查找</translation>
    </message>
    <message>
        <source>installed</source>
        <translation>已安装</translation>
    </message>
    <message>
        <source>unverified</source>
        <translation>未校验</translation>
    </message>
    <message>
        <source>needs a draft export</source>
        <translation>需要导出草稿模型</translation>
    </message>
    <message>
        <source>Its text so far is kept and marked interrupted.</source>
        <translation>已生成的文字已保留，并标记为中断。</translation>
    </message>
    <message>
        <source>Nothing of that reply had been saved yet.</source>
        <translation>该回复尚未保存任何内容。</translation>
    </message>
    <message>
        <source>EagleChat last stopped in the middle of a reply: the reply was cut off. {kept}</source>
        <translation>EagleChat 上次在生成回复的过程中停止：该回复被截断。{kept}</translation>
    </message>
    <message>
        <source> Prefix caching was on; if this happens again, turning it off may avoid it (replies in long conversations then start more slowly).</source>
        <translation>当时前缀缓存已开启；如果再次发生，关闭它或许可以避免（但长对话中的回复会开始得更慢）。</translation>
    </message>
    <message>
        <source>history {tokens} tokens, {dropped} earlier messages not sent</source>
        <translation>历史 {tokens} 个 token，{dropped} 条更早的消息未发送</translation>
    </message>
    <message>
        <source>history {tokens} tokens</source>
        <translation>历史 {tokens} 个 token</translation>
    </message>
    <message>
        <source>K={k} tree {tree}</source>
        <translation>K={k}，草稿树 {tree}</translation>
    </message>
    <message>
        <source>{tokens} tokens</source>
        <translation>{tokens} 个 token</translation>
    </message>
    <message>
        <source>{tokens} tokens ({thinking} thinking + {answer} answer)</source>
        <translation>{tokens} 个 token（思考 {thinking} + 回答 {answer}）</translation>
    </message>
    <message>
        <source>{rate:.1f} tok/s</source>
        <translation>{rate:.1f} tok/s</translation>
    </message>
    <message>
        <source>TTFT {ms:.0f} ms</source>
        <translation>首 token 延迟（TTFT）{ms:.0f} ms</translation>
    </message>
    <message>
        <source>tok/step unknown</source>
        <translation>tok/步 未知</translation>
    </message>
    <message>
        <source>{rate:.2f} tok/step</source>
        <translation>{rate:.2f} tok/步</translation>
    </message>
    <message>
        <source>acceptance unknown</source>
        <translation>接受率未知</translation>
    </message>
    <message>
        <source>acceptance {share:.0%}</source>
        <translation>接受率 {share:.0%}</translation>
    </message>
    <message>
        <source>draft tokens and acceptance unknown (not reported by the server)</source>
        <translation>草稿 token 与接受率未知（服务器未报告）</translation>
    </message>
    <message>
        <source>{runs} runs</source>
        <translation>{runs} 次生成</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>Copied from the prompt by prompt lookup — step {step}: the target accepted 1 drafted token, then added one of its own (shown plain)</source>
        <translation>由提示查找从提示中复制——第 {step} 个验证步：主模型接受了 1 个草稿 token，然后自己生成了一个（以普通样式显示）</translation>
    </message>
    <message>
        <source>Copied from the prompt by prompt lookup — step {step}: the target accepted {accepted} drafted tokens, then added one of its own (shown plain)</source>
        <translation>由提示查找从提示中复制——第 {step} 个验证步：主模型接受了 {accepted} 个草稿 token，然后自己生成了一个（以普通样式显示）</translation>
    </message>
    <message>
        <source>Drafted by EAGLE-3 — step {step}: the target accepted 1 drafted token, then added one of its own (shown plain)</source>
        <translation>由 EAGLE-3 起草——第 {step} 个验证步：主模型接受了 1 个草稿 token，然后自己生成了一个（以普通样式显示）</translation>
    </message>
    <message>
        <source>Drafted by EAGLE-3 — step {step}: the target accepted {accepted} drafted tokens, then added one of its own (shown plain)</source>
        <translation>由 EAGLE-3 起草——第 {step} 个验证步：主模型接受了 {accepted} 个草稿 token，然后自己生成了一个（以普通样式显示）</translation>
    </message>
    <message>
        <source>No drafted steps yet: send a message with EAGLE-3 on.</source>
        <translation>还没有起草的验证步：请在开启 EAGLE-3 时发送一条消息。</translation>
    </message>
    <message>
        <source>{steps} steps</source>
        <translation>{steps} 个验证步</translation>
    </message>
    <message>
        <source>mean {mean:.2f} of {most} accepted</source>
        <translation>平均接受 {mean:.2f}/{most}</translation>
    </message>
    <message>
        <source>{rate:.2f} tokens/step</source>
        <translation>{rate:.2f} token/步</translation>
    </message>
    <message>
        <source>GenAI counts {accepted} accepted (not the last step)</source>
        <translation>GenAI 计为接受 {accepted} 个（不含最后一步）</translation>
    </message>
    <message>
        <source>Bars: how many verification steps accepted 0, 1, … K of their drafted tokens.</source>
        <translation>柱：接受了 0、1、… K 个草稿 token 的验证步各有多少。</translation>
    </message>
    <message>
        <source>Line: the share of steps whose drafted token at position 1, 2, … K was accepted.</source>
        <translation>线：位置 1、2、… K 上的草稿 token 被接受的验证步所占的比例。</translation>
    </message>
    <message>
        <source>GenAI&apos;s own accepted-token count on CPU/GPU leaves out each reply&apos;s last step; the chart counts it.</source>
        <translation>GenAI 在 CPU/GPU 上自己统计的接受 token 数不含每条回复的最后一步；本图计入了它。</translation>
    </message>
    <message>
        <source>a draft tree {depth} deep × {branching} wide, K={k}</source>
        <translation>深度 {depth} × 分支数 {branching} 的草稿树，K={k}</translation>
    </message>
    <message>
        <source>Next reply: Automatic chooses per kind of work — EAGLE-3 speculative decoding, {how}, or prompt lookup when it repeats pasted code, documents or tool results.</source>
        <translation>下一条回复：按工作类型自动选择——EAGLE-3，{how}；重复粘贴的代码、文档或工具结果时用提示查找。</translation>
    </message>
    <message>
        <source>Next reply: EAGLE-3, {how}, greedy — sampling is set aside while the draft is loaded (EAGLE-3 decodes greedily only).</source>
        <translation>下一条回复：EAGLE-3，{how}，贪心解码——加载草稿模型时不使用采样（EAGLE-3 只支持贪心解码）。</translation>
    </message>
    <message>
        <source>Next reply: refused — this conversation already holds {tokens} tokens, more than the NPU&apos;s prompt limit of {limit}. Start a new conversation.</source>
        <translation>下一条回复：被拒绝——此对话已有 {tokens} 个 token，超过 NPU 的提示词上限 {limit}。请开始新的对话。</translation>
    </message>
    <message>
        <source>Next reply: plain decoding — the draft is on {draft_device} but the model on {device}; EAGLE-3 needs both on the same device.</source>
        <translation>下一条回复：普通解码——草稿模型在 {draft_device} 上，而主模型在 {device} 上；EAGLE-3 要求二者在同一设备上。</translation>
    </message>
    <message>
        <source>Next reply: none yet — no model is loaded.</source>
        <translation>下一条回复：暂无——尚未加载模型。</translation>
    </message>
    <message>
        <source>Next reply: waiting for the model to load.</source>
        <translation>下一条回复：正在等待模型加载。</translation>
    </message>
    <message>
        <source>Next reply: plain decoding — no EAGLE-3 draft is loaded with this model; prompt lookup when it repeats pasted code, documents or tool results.</source>
        <translation>下一条回复：普通解码——此模型未加载 EAGLE-3 草稿模型；若回复重复粘贴的代码、文档或工具结果，则用提示查找。</translation>
    </message>
    <message>
        <source>Next reply: plain decoding — EAGLE-3 is switched off (the EAGLE-3 button).</source>
        <translation>下一条回复：普通解码——EAGLE-3 已关闭（EAGLE-3 按钮）。</translation>
    </message>
    <message>
        <source>Next reply: refused — sampling was asked for, and a model loaded with an EAGLE-3 draft decodes greedily only. Turn sampling off, or load the model without its draft.</source>
        <translation>下一条回复：被拒绝——请求了采样，而带 EAGLE-3 草稿模型加载的模型只支持贪心解码。请关闭采样，或不带草稿模型加载该模型。</translation>
    </message>
    <message>
        <source>the answers part at character {index}: baseline “{baseline}” vs EAGLE-3 “{speculative}”</source>
        <translation>两个回答在第 {index} 个字符处开始不同：基线“{baseline}”，EAGLE-3“{speculative}”</translation>
    </message>
    <message>
        <source>a draft-free pipeline (plain LLMPipeline)</source>
        <translation>不带草稿模型的管线（普通 LLMPipeline）</translation>
    </message>
    <message>
        <source>the same pipeline with 0 draft tokens (a little slower than a draft-free one)</source>
        <translation>同一管线、草稿 token 数为 0（比不带草稿模型的管线稍慢）</translation>
    </message>
    <message>
        <source>f32 precision (greedy answers must be identical)</source>
        <translation>f32 精度（贪心解码的回答必须完全相同）</translation>
    </message>
    <message>
        <source>default precision (the device&apos;s fastest; the two modes&apos; answers may part after a while)</source>
        <translation>默认精度（该设备最快的精度；两种模式的回答可能在一段之后出现差异）</translation>
    </message>
    <message>
        <source>{precision} precision (the device&apos;s fastest; the two modes&apos; answers may part after a while)</source>
        <translation>{precision} 精度（该设备最快的精度；两种模式的回答可能在一段之后出现差异）</translation>
    </message>
    <message numerus="yes">
        <source>Speed-up ×{speedup:.2f}: EAGLE-3 was faster in every one of %n runs per mode</source>
        <translation>
            <numerusform>加速 ×{speedup:.2f}：每种模式各 %n 次运行中，EAGLE-3 每次都更快</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>EAGLE-3 was slower (×{speedup:.2f}) in every one of %n runs per mode</source>
        <translation>
            <numerusform>每种模式各 %n 次运行中，EAGLE-3 每次都更慢（×{speedup:.2f}）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>×{speedup:.2f} from %n run(s) per mode: too few to tell from noise (run at least {least})</source>
        <translation>
            <numerusform>×{speedup:.2f}，每种模式 %n 次运行：次数太少，无法与噪声区分（至少运行 {least} 次）</numerusform>
        </translation>
    </message>
    <message>
        <source>medians within {floor:.0%}</source>
        <translation>中位数相差在 {floor:.0%} 以内</translation>
    </message>
    <message>
        <source>the two modes&apos; tokens/s ranges overlap</source>
        <translation>两种模式的 tokens/s 范围重叠</translation>
    </message>
    <message>
        <source>No measurable difference (×{speedup:.2f}; {why})</source>
        <translation>没有可测出的差异（×{speedup:.2f}；{why}）</translation>
    </message>
    <message numerus="yes">
        <source>after %n uncounted warm-up run(s) of up to {tokens} tokens</source>
        <translation>
            <numerusform>先进行 %n 次不计入的预热运行，每次最多 {tokens} 个 token</numerusform>
        </translation>
    </message>
    <message>
        <source>no warm-up</source>
        <translation>无预热</translation>
    </message>
    <message numerus="yes">
        <source>Compared: EAGLE-3 {drafting} vs {baseline}, on {device}, {precision}; %n run(s) per mode in alternating order, {warm}; up to {tokens} new tokens</source>
        <translation>
            <numerusform>对比：EAGLE-3 {drafting} 与 {baseline}，在 {device} 上，{precision}；每种模式 %n 次运行，交替进行，{warm}；最多 {tokens} 个新 token</numerusform>
        </translation>
    </message>
    <message>
        <source>tokens/s, median (min–max): baseline {baseline} · EAGLE-3 {speculative}</source>
        <translation>tokens/s，中位数（最小–最大）：基线 {baseline} · EAGLE-3 {speculative}</translation>
    </message>
    <message>
        <source>TTFT: baseline {baseline} · EAGLE-3 {speculative}</source>
        <translation>首 token 延迟（TTFT）：基线 {baseline} · EAGLE-3 {speculative}</translation>
    </message>
    <message>
        <source>EAGLE-3: {rate} tokens/step · acceptance {share}</source>
        <translation>EAGLE-3：{rate} token/步 · 接受率 {share}</translation>
    </message>
    <message>
        <source>Answers identical ✓</source>
        <translation>回答完全相同 ✓</translation>
    </message>
    <message>
        <source>Answers differ: {where}</source>
        <translation>回答不同：{where}</translation>
    </message>
    <message>
        <source>{seconds} s</source>
        <translation>{seconds} 秒</translation>
    </message>
    <message>
        <source>{minutes} min {seconds:02d} s</source>
        <translation>{minutes} 分 {seconds:02d} 秒</translation>
    </message>
    <message>
        <source>{hours} h {minutes:02d} min</source>
        <translation>{hours} 小时 {minutes:02d} 分</translation>
    </message>
    <message>
        <source>{done} of {total}</source>
        <translation>{done}/{total}</translation>
    </message>
    <message>
        <source>{size}/s</source>
        <translation>{size}/s</translation>
    </message>
    <message>
        <source>{duration} left</source>
        <translation>剩余 {duration}</translation>
    </message>
    <message>
        <source>{target} (no draft)</source>
        <translation>{target}（无草稿模型）</translation>
    </message>
    <message>
        <source>{name} ({folders})</source>
        <translation>{name}（{folders}）</translation>
    </message>
    <message>
        <source>{title}  ({size})</source>
        <translation>{title}（{size}）</translation>
    </message>
    <message>
        <source>Download: {size}</source>
        <translation>下载：{size}</translation>
    </message>
    <message>
        <source>Runs on: {devices}</source>
        <translation>运行于：{devices}</translation>
    </message>
    <message>
        <source>Languages: {languages}</source>
        <translation>语言：{languages}</translation>
    </message>
    <message>
        <source>Licence: {license}.</source>
        <translation>许可证：{license}。</translation>
    </message>
    <message>
        <source>Ready to run as downloaded.</source>
        <translation>下载后即可运行。</translation>
    </message>
    <message>
        <source>Its draft is converted to OpenVINO on this computer after the download (under a minute; no extra packages).</source>
        <translation>下载后，它的草稿模型会在这台电脑上转换为 OpenVINO 格式（不到一分钟；无需额外安装软件包）。</translation>
    </message>
    <message>
        <source>Its draft is converted to OpenVINO on this computer after the download (under a minute). NNCF is not installed, so the draft keeps 16-bit weights: about {size} on disk, where int4 would take about a third of that.</source>
        <translation>下载后，它的草稿模型会在这台电脑上转换为 OpenVINO 格式（不到一分钟）。未安装 NNCF，因此草稿模型保留 16 位权重：约占 {size} 磁盘空间，int4 只需其约三分之一。</translation>
    </message>
    <message>
        <source>Unverified: {what}</source>
        <translation>未校验：{what}</translation>
    </message>
    <message>
        <source>Where these repositories come from: {evidence}</source>
        <translation>这些仓库的来源：{evidence}</translation>
    </message>
    <message>
        <source>Download is off: this entry&apos;s EAGLE-3 draft comes in Hugging Face format and must be exported to OpenVINO first. {problem}</source>
        <translation>下载不可用：此条目的 EAGLE-3 草稿模型为 Hugging Face 格式，必须先导出为 OpenVINO 格式。{problem}</translation>
    </message>
    <message>
        <source>NPU cannot draft {candidates} tokens this way</source>
        <translation>NPU 无法以这种方式起草 {candidates} 个 token</translation>
    </message>
    <message>
        <source>On the NPU, OpenVINO GenAI drafts trees only: a chain of K tokens is a tree K deep with one branch, and the limits are compiled into the draft when the model loads.</source>
        <translation>在 NPU 上，OpenVINO GenAI 只起草草稿树：K 个 token 的链即深度为 K、分支数为 1 的树，这些上限会在模型加载时编译进草稿模型。</translation>
    </message>
    <message>
        <source>NPU drafts a chain: depth {depth} × 1 branch, {verified} candidates</source>
        <translation>NPU 起草一条链：深度 {depth} × 1 个分支，{verified} 个候选</translation>
    </message>
    <message>
        <source>NPU drafts a tree: depth {depth} × {branching} branches, {verified} candidates</source>
        <translation>NPU 起草一棵树：深度 {depth} × {branching} 个分支，{verified} 个候选</translation>
    </message>
    <message>
        <source>A reply is being generated: stop it or let it finish before changing the model, device or precision.</source>
        <translation>正在生成回复：请先停止或等待其完成，再更改模型、设备或精度。</translation>
    </message>
    <message>
        <source>{earlier} and {more}</source>
        <translation>{earlier}和{more}</translation>
    </message>
    <message>
        <source>Closing after {what} (at most {seconds:.0f} s)…</source>
        <translation>等待 {what} 后关闭（最多 {seconds:.0f} 秒）…</translation>
    </message>
    <message>
        <source>Closing after {what}…</source>
        <translation>等待 {what} 后关闭…</translation>
    </message>
    <message>
        <source>--draft was given without --model; the saved model is used.</source>
        <translation>给出了 --draft 但没有 --model；将使用已保存的模型。</translation>
    </message>
    <message>
        <source>{device} is not available here ({reason}); using CPU.</source>
        <translation>{device} 在此不可用（{reason}）；改用 CPU。</translation>
    </message>
    <message numerus="yes">
        <source>%n reply was cut off when EagleChat last closed; its text so far is kept and marked interrupted.</source>
        <translation>
            <numerusform>EagleChat 上次关闭时有 %n 条回复被截断；已生成的文字已保留，并标记为中断。</numerusform>
        </translation>
    </message>
</context>
</TS>
