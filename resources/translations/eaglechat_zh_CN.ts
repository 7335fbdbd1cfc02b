<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
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
</context>
</TS>
