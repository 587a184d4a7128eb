import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
const root = '/work/wt/treeshake/';
const cases = {
  client: "import { FuturesClient } from 'futures-sdk'; export const c = new FuturesClient({ baseUrl: 'https://x' });",
  market: "import { createBaseClient } from 'futures-sdk'; import { ticker24hr, klines } from 'futures-sdk/market'; const c = createBaseClient({ baseUrl: 'https://x' }); export const a = () => ticker24hr(c, {}); export const b = () => klines(c, { symbol: 'X', interval: '1m' });",
  signer: "import { canonicalQuery, hmacSha256Hex } from 'futures-sdk'; export const s = (q) => hmacSha256Hex('k', canonicalQuery(q));",
};
const which = process.argv[2];
for (const [name, code] of Object.entries(cases)) {
  if (which && which !== name) continue;
  const r = await build({ stdin: { contents: code, resolveDir: root, loader: 'js' }, bundle: true, minify: !process.argv[3], write: false, format: 'esm', platform: 'browser', target: 'es2022', logLevel: 'error', metafile: true, tsconfigRaw: '{}' });
  const bytes = r.outputFiles[0].contents;
  console.log(name, (bytes.length/1024).toFixed(1), (gzipSync(bytes, { level: 9 }).length / 1024).toFixed(1));
  if (process.argv[3]) { (await import('node:fs')).writeFileSync(`/tmp/treeshake/out-${name}.js`, bytes); 
    const ins = Object.entries(r.metafile.outputs)[0][1].inputs; console.log(Object.entries(ins).sort((a,b)=>b[1].bytesInOutput-a[1].bytesInOutput).slice(0,25).map(([k,v])=>`${v.bytesInOutput} ${k}`).join('\n')); }
}
