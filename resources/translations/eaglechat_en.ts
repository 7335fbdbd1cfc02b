<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>AttachBar</name>
    <message numerus="yes">
        <source>Replies in this conversation also answer from the documents library (%n file(s))</source>
        <translation>
            <numerusform>Replies in this conversation also answer from the documents library (%n file)</numerusform>
            <numerusform>Replies in this conversation also answer from the documents library (%n files)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MessageActions</name>
    <message numerus="yes">
        <source>Delete this message and the %n message(s) after it? Other versions stay.</source>
        <translation>
            <numerusform>Delete this message and the %n message after it? Other versions stay.</numerusform>
            <numerusform>Delete this message and the %n messages after it? Other versions stay.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message numerus="yes">
        <source>%n shortcut(s)</source>
        <translation>
            <numerusform>%n shortcut</numerusform>
            <numerusform>%n shortcuts</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TuneDialog</name>
    <message numerus="yes">
        <source>%n stopped run(s) not counted.</source>
        <translation>
            <numerusform>%n stopped run not counted.</numerusform>
            <numerusform>%n stopped runs not counted.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>demo_texts</name>
    <message numerus="yes">
        <source> This load took {seconds:.1f} s, compiling and caching %n blob(s): the next start reads them.</source>
        <translation>
            <numerusform> This load took {seconds:.1f} s, compiling and caching %n blob: the next start reads them.</numerusform>
            <numerusform> This load took {seconds:.1f} s, compiling and caching %n blobs: the next start reads them.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, compiling and caching %n blob(s): the next start reads them.</source>
        <translation>
            <numerusform>, compiling and caching %n blob: the next start reads them.</numerusform>
            <numerusform>, compiling and caching %n blobs: the next start reads them.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Compiled-model cache in place (%n blob(s), {size}).{origin}</source>
        <translation>
            <numerusform>Compiled-model cache in place (%n blob, {size}).{origin}</numerusform>
            <numerusform>Compiled-model cache in place (%n blobs, {size}).{origin}</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>texts</name>
    <message numerus="yes">
        <source>Speed-up ×{speedup:.2f}: EAGLE-3 was faster in every one of %n runs per mode</source>
        <translation>
            <numerusform>Speed-up ×{speedup:.2f}: EAGLE-3 was faster in the %n run per mode</numerusform>
            <numerusform>Speed-up ×{speedup:.2f}: EAGLE-3 was faster in every one of %n runs per mode</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>EAGLE-3 was slower (×{speedup:.2f}) in every one of %n runs per mode</source>
        <translation>
            <numerusform>EAGLE-3 was slower (×{speedup:.2f}) in the %n run per mode</numerusform>
            <numerusform>EAGLE-3 was slower (×{speedup:.2f}) in every one of %n runs per mode</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>×{speedup:.2f} from %n run(s) per mode: too few to tell from noise (run at least {least})</source>
        <translation>
            <numerusform>×{speedup:.2f} from %n run per mode: too few to tell from noise (run at least {least})</numerusform>
            <numerusform>×{speedup:.2f} from %n runs per mode: too few to tell from noise (run at least {least})</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>after %n uncounted warm-up run(s) of up to {tokens} tokens</source>
        <translation>
            <numerusform>after %n uncounted warm-up run of up to {tokens} tokens</numerusform>
            <numerusform>after %n uncounted warm-up runs of up to {tokens} tokens</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Compared: EAGLE-3 {drafting} vs {baseline}, on {device}, {precision}; %n run(s) per mode in alternating order, {warm}; up to {tokens} new tokens</source>
        <translation>
            <numerusform>Compared: EAGLE-3 {drafting} vs {baseline}, on {device}, {precision}; %n run per mode in alternating order, {warm}; up to {tokens} new tokens</numerusform>
            <numerusform>Compared: EAGLE-3 {drafting} vs {baseline}, on {device}, {precision}; %n runs per mode in alternating order, {warm}; up to {tokens} new tokens</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n reply was cut off when EagleChat last closed; its text so far is kept and marked interrupted.</source>
        <translation>
            <numerusform>%n reply was cut off when EagleChat last closed; its text so far is kept and marked interrupted.</numerusform>
            <numerusform>%n replies were cut off when EagleChat last closed; their text so far is kept and marked interrupted.</numerusform>
        </translation>
    </message>
</context>
</TS>
