; Inno Setup script: per-user installer for the EagleChat one-folder bundle (Windows x64).
;
; It cannot be built on the Linux machine where EagleChat is developed: PyInstaller does not
; cross-compile, and the Inno Setup compiler runs on Windows. .github/workflows/windows.yml builds it on a
; windows-latest runner; by hand, from the repository root:
;
;   py -3.11 -m venv .venv && .venv\Scripts\pip install -e ".[test]"
;   .venv\Scripts\pyinstaller --noconfirm --distpath build\dist --workpath build\pyinstaller-work packaging\eagle_chat.spec
;   build\dist\eagle-chat\eagle-chat.exe --self-test
;   iscc packaging\windows\eagle-chat.iss            (or: iscc /DAppVersion=0.2.0 packaging\windows\eagle-chat.iss)
;
; The result is build\installer\EagleChat-<version>-setup.exe, in English or Simplified Chinese. It installs
; without administrator rights into %LOCALAPPDATA%\Programs\EagleChat; the Start-menu (and optional desktop)
; shortcut starts the windowed EagleChat.exe, the optional PATH entry makes the console eagle-chat.exe a
; command. A wizard page offers another models folder (models take gigabytes): it becomes the user variable
; EAGLE_CHAT_MODELS. The uninstaller removes the program folder and the PATH entry; conversations, settings and
; models (%LOCALAPPDATA%\EagleChat, and a chosen models folder) are the user's and are kept unless the user
; ticks "delete them too" when asked. Silent uninstall (/VERYSILENT) keeps them; /DELETEDATA=1 deletes them.

#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif
#define AppName "EagleChat"
#define AppExe "EagleChat.exe"
#define CliExe "eagle-chat.exe"
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
; The PATH entry takes effect in new consoles without logging off.
ChangesEnvironment=yes

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"
; Inno Setup 6 ships Simplified Chinese as an unofficial translation; the Windows job fetches it into
; packaging\windows\ChineseSimplified.isl (see .github/workflows/windows.yml).
Name: "chinesesimplified"; MessagesFile: "ChineseSimplified.isl"

[CustomMessages]
english.AddToPath=Add the eagle-chat command to PATH (for the terminal)
chinesesimplified.AddToPath=将 eagle-chat 命令添加到 PATH（供终端使用）
english.ModelsTitle=Models folder
chinesesimplified.ModelsTitle=模型文件夹
english.ModelsDescription=Where should EagleChat keep downloaded models?
chinesesimplified.ModelsDescription=EagleChat 应将下载的模型保存在哪里？
english.ModelsSub=Models take several gigabytes each. Choose a folder on a drive with room, or keep the default.
chinesesimplified.ModelsSub=每个模型需要数 GB 空间。请选择一个空间充足的驱动器上的文件夹，或保留默认位置。
english.DeleteData=Also delete your conversations, settings and downloaded models?%n%nChoose No to keep them for a later install.
chinesesimplified.DeleteData=是否同时删除您的对话、设置和已下载的模型？%n%n选择“否”可保留它们，以便日后重新安装时使用。

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked
Name: "addtopath"; Description: "{cm:AddToPath}"; Flags: unchecked

[Files]
Source: "{#BundleDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[InstallDelete]
; A new version may ship fewer files; stale OpenVINO plugins from an old version must not be loaded.
Type: filesandordirs; Name: "{app}\_internal"

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExe}"; WorkingDir: "{app}"; Comment: "Chat with local language models"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; WorkingDir: "{app}"; Tasks: desktopicon

[Registry]
; The chosen models folder (only when it is not the default), read by eagle_chat.paths.models_dir().
Root: HKCU; Subkey: "Environment"; ValueType: expandsz; ValueName: "EAGLE_CHAT_MODELS"; ValueData: "{code:ModelsDir}"; Flags: uninsdeletevalue; Check: ModelsDirChosen
; The console eagle-chat.exe on the user's PATH (removed again by the [Code] below on uninstall).
Root: HKCU; Subkey: "Environment"; ValueType: expandsz; ValueName: "Path"; ValueData: "{olddata};{app}"; Tasks: addtopath; Check: NotOnPath

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent

[Code]
var
  ModelsPage: TInputDirWizardPage;

function DefaultModelsDir: String;
begin
  Result := ExpandConstant('{localappdata}\EagleChat\models');
end;

procedure InitializeWizard;
begin
  ModelsPage := CreateInputDirPage(wpSelectDir, CustomMessage('ModelsTitle'), CustomMessage('ModelsDescription'),
    CustomMessage('ModelsSub'), False, '');
  ModelsPage.Add('');
  ModelsPage.Values[0] := GetEnv('EAGLE_CHAT_MODELS');
  if ModelsPage.Values[0] = '' then
    ModelsPage.Values[0] := DefaultModelsDir;
end;

function ModelsDir(Param: String): String;
begin
  Result := ModelsPage.Values[0];
end;

function ModelsDirChosen: Boolean;
begin
  Result := CompareText(RemoveBackslash(ModelsPage.Values[0]), DefaultModelsDir) <> 0;
end;

function NotOnPath: Boolean;
var
  Path: String;
begin
  if not RegQueryStringValue(HKCU, 'Environment', 'Path', Path) then
    Path := '';
  Result := Pos(';' + Uppercase(ExpandConstant('{app}')) + ';', ';' + Uppercase(Path) + ';') = 0;
end;

procedure RemoveFromPath;
var
  Path, Entry: String;
  At: Integer;
begin
  if not RegQueryStringValue(HKCU, 'Environment', 'Path', Path) then
    exit;
  Entry := ';' + ExpandConstant('{app}');
  At := Pos(Uppercase(Entry), Uppercase(Path));
  if At > 0 then
  begin
    Delete(Path, At, Length(Entry));
    RegWriteExpandStringValue(HKCU, 'Environment', 'Path', Path);
  end;
end;

function DeleteDataAsked: Boolean;
begin
  if UninstallSilent then
    Result := ExpandConstant('{param:DELETEDATA|0}') = '1'
  else
    Result := MsgBox(CustomMessage('DeleteData'), mbConfirmation, MB_YESNO or MB_DEFBUTTON2) = IDYES;
end;

procedure CurUninstallStepChanged(CurUninstallStep: TUninstallStep);
var
  Models: String;
begin
  if CurUninstallStep = usUninstall then
    RemoveFromPath;
  if (CurUninstallStep = usPostUninstall) and DeleteDataAsked then
  begin
    Models := GetEnv('EAGLE_CHAT_MODELS');
    if Models <> '' then
      DelTree(Models, True, True, True);
    DelTree(ExpandConstant('{localappdata}\EagleChat'), True, True, True);
  end;
end;
