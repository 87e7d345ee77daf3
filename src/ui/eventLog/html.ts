// The event log's page: its HTML shell (CSP by nonce, nothing inline, nothing remote) and the
// webview options that let it load only the extension's media/ and dist/.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export function nonce(): string {
  return randomBytes(16).toString('base64').replace(/[^A-Za-z0-9]/g, '');
}

export function eventLogHtml(webview: vscode.Webview, extensionUri: vscode.Uri, n = nonce()): string {
  const asset = (...p: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...p)).toString();
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource}`,
    `script-src 'nonce-${n}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('media', 'codicons', 'codicon.css')}">
<link rel="stylesheet" href="${asset('media', 'eventLog.css')}">
<title>Event Log</title>
</head>
<body>
<div id="app" class="app" aria-busy="true"></div>
<script nonce="${n}" src="${asset('dist', 'webview.js')}"></script>
</body>
</html>`;
}

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media'), vscode.Uri.joinPath(extensionUri, 'dist')] };
}
