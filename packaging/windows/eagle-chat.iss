; Inno Setup script: per-user installer for the EagleChat one-folder bundle (Windows x64).
;
; It cannot be built on the Linux machine where EagleChat is developed: PyInstaller does not
; cross-compile, and the Inno Setup compiler runs on Windows. On Windows, from the repository root:
;
;   py -3.11 -m venv .venv && .venv\Scripts\pip install -e ".[test]"
;   .venv\Scripts\pyinstaller --noconfirm --distpath build\dist --workpath build\pyinstaller-work packaging\eagle_chat.spec
;   build\dist\eagle-chat\eagle-chat.exe --self-test
;   iscc packaging\windows\eagle-chat.iss            (or: iscc /DAppVersion=0.2.0 packaging\windows\eagle-chat.iss)
;
; The result is build\installer\EagleChat-<version>-setup.exe. It installs without administrator rights
; into %LOCALAPPDATA%\Programs\EagleChat, adds a Start-menu shortcut (and optionally a desktop one), and
; registers an uninstaller under "Apps & features". The uninstaller removes the program folder only:
; conversations, settings and downloaded models (%LOCALAPPDATA%\EagleChat) are the user's and are kept.

#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif
#define AppName "EagleChat"
#define AppExe "eagle-chat.exe"
; Paths are relative to this script's folder.
#ifndef BundleDir
  #define BundleDir "..\..\build\dist\eagle-chat"
#endif

[Setup]
AppId={{A000D5B1-4223-479F-B2E4-B805EACBED04}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher=EagleChat contributors
; Per-user install: no UAC prompt; {autopf} is %LOCALAPPDATA%\Programs with the lowest privileges.
PrivilegesRequired=lowest
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
MinVersion=10.0
OutputDir=..\..\build\installer
OutputBaseFilename={#AppName}-{#AppVersion}-setup
SetupIconFile=..\..\resources\icons\eagle-chat.ico
UninstallDisplayIcon={app}\{#AppExe}
UninstallDisplayName={#AppName}
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
; Closing a running EagleChat before files are replaced.
CloseApplications=yes

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "{#BundleDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[InstallDelete]
; A new version may ship fewer files; stale OpenVINO plugins from an old version must not be loaded.
Type: filesandordirs; Name: "{app}\_internal"

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExe}"; WorkingDir: "{app}"; Comment: "Chat with local language models"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; WorkingDir: "{app}"; Tasks: desktopicon

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent
