// @ts-check
/**
 * Writes public/favicon.ico from public/favicon.svg (16, 32 and 48 px PNGs in an ICO container), for the clients
 * that ask for /favicon.ico without reading the page's <link rel="icon">. Run after changing the SVG:
 *   npx node scripts/favicon-ico.mjs
 */
import { chromium } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
const svg = readFileSync('public/favicon.svg', 'utf8');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const pngs = [];
for (const size of [16, 32, 48]) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`);
  pngs.push({ size, png: await page.screenshot({ omitBackground: true }) });
}
await browser.close();
// ICO container (ICONDIR + ICONDIRENTRY per image) holding PNG images, which every current browser reads.
const header = Buffer.alloc(6 + 16 * pngs.length);
header.writeUInt16LE(0, 0);
header.writeUInt16LE(1, 2);
header.writeUInt16LE(pngs.length, 4);
let offset = header.length;
pngs.forEach(({ size, png }, i) => {
  const e = 6 + 16 * i;
  header.writeUInt8(size % 256, e);
  header.writeUInt8(size % 256, e + 1);
  header.writeUInt8(0, e + 2);
  header.writeUInt8(0, e + 3);
  header.writeUInt16LE(1, e + 4);
  header.writeUInt16LE(32, e + 6);
  header.writeUInt32LE(png.length, e + 8);
  header.writeUInt32LE(offset, e + 12);
  offset += png.length;
});
writeFileSync('public/favicon.ico', Buffer.concat([header, ...pngs.map((p) => p.png)]));
