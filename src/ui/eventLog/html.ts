// The event log's page: its HTML shell (CSP by nonce, nothing remote) and the webview options
// that let it load only the extension's media/ and dist/. Its one inline script, allowed by the
// same nonce, runs before the page's files load: it takes the page's one VS Code API handle and
// reports a script or stylesheet that fails to load, which otherwise leaves a blank page that
// says nothing (see START_RELOADS in pageLoadPolicy.ts).
import * as vscode from 'vscode';
import { VSCODE_API_GLOBAL } from '../../protocol/messages';

// The global Web Crypto, not node:crypto: importing that module at load costs activation ~2 ms.
export function nonce(): string {
  return Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(16)))
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '');
}

const LOAD_GUARD = `(() => {
  const api = acquireVsCodeApi();
  window.${VSCODE_API_GLOBAL} = api;
  api.postMessage({ type: 'loading' });
  addEventListener('error', (e) => {
    const t = e.target;
    if (t instanceof HTMLScriptElement || t instanceof HTMLLinkElement) api.postMessage({ type: 'loadFailed', what: String(t.src || t.href).split('/').slice(-2).join('/') });
  }, true);
})();`;

export function eventLogHtml(webview: vscode.Webview, extensionUri: vscode.Uri, n = nonce()): string {
  const asset = (...p: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...p)).toString();
  const csp = ["default-src 'none'", `style-src ${webview.cspSource}`, `font-src ${webview.cspSource}`, `img-src ${webview.cspSource}`, `script-src 'nonce-${n}'`].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<script nonce="${n}">${LOAD_GUARD}</script>
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
