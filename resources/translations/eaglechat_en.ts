<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
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
</TS>
