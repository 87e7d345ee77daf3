#!/usr/bin/env node
// Draws media/icon.png (128x128, the Marketplace and Open VSX icon) from the activity-bar glyph
// media/rpc-workers.svg: the same two workers and their two channels, white on a rounded tile.
// Needs librsvg's `rsvg-convert` (Debian: apt-get install -y librsvg2-bin; ImageMagick's own SVG
// reader draws the gradient black) and ImageMagick's `identify` to say what it made.
//   node scripts/make-icon.mjs        rewrites media/icon.png
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, makeTempDir } from './lib/paths.mjs';

const glyph = readFileSync(join(repoRoot, 'media', 'rpc-workers.svg'), 'utf8');
const inner = glyph.replace(/^[\s\S]*?<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '');
// The glyph's 24-unit box, scaled to 88 px and centred on a 128 px tile.
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">
  <defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2b5fd9"/><stop offset="1" stop-color="#1b2f73"/></linearGradient></defs>
  <rect x="4" y="4" width="120" height="120" rx="26" fill="url(#bg)"/>
  <g transform="translate(20 20) scale(3.6667)" fill="none" stroke="#ffffff" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round">${inner}</g>
</svg>
`;
const dir = makeTempDir('icon');
try {
  const src = join(dir, 'icon.svg');
  writeFileSync(src, svg);
  const out = join(repoRoot, 'media', 'icon.png');
  execFileSync('rsvg-convert', ['-w', '128', '-h', '128', '-o', out, src], { stdio: 'inherit' });
  console.log(`[make-icon] ${out}: ${execFileSync('identify', [out], { encoding: 'utf8' }).trim()}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
