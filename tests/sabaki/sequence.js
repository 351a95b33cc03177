// Sabaki's exact sequence, through Sabaki's own GTP controller (@sabaki/gtp):
// pipelined attach, komi before boardsize, pipelined plays (the same colour twice),
// lz-analyze aborted by protocol_version, genmove, undo, quit.
// Usage: node sequence.js /path/to/yeoul [engine arguments...]
const {Controller} = require('@sabaki/gtp')
const assert = require('assert')

async function main() {
  const [binary, ...args] = process.argv.slice(2)
  const engine = new Controller(binary, args)
  engine.start()
  const send = (name, ...a) => engine.sendCommand({name, args: a})
  const ok = async (promise, what) => {
    const r = await promise
    assert(!r.error, `${what} failed: ${r.content}`)
    return r.content
  }

  // Attach: four commands at once.
  const attach = ['name', 'version', 'protocol_version', 'list_commands'].map(c => ok(send(c), c))
  const [name, , protocol, list] = await Promise.all(attach)
  assert.strictEqual(name, 'yeoul')
  assert.strictEqual(protocol, '2')
  const commands = list.split('\n')
  for (const c of ['komi', 'boardsize', 'clear_board', 'play', 'genmove', 'undo', 'lz-analyze']) {
    assert(commands.includes(c), `list_commands lacks ${c}`)
  }

  // Sync: komi first, then boardsize, then the moves without waiting.
  await ok(send('komi', '7.5'), 'komi')
  await ok(send('boardsize', '19'), 'boardsize')
  await ok(send('clear_board'), 'clear_board')
  await Promise.all([
    ok(send('play', 'B', 'D4'), 'play B D4'),
    ok(send('play', 'B', 'Q16'), 'play B Q16'),
    ok(send('play', 'W', 'Q4'), 'play W Q4'),
  ])

  // Analysis, aborted by protocol_version as Sabaki does.
  let infoLines = 0
  const analysis = engine.sendCommand({name: 'lz-analyze', args: ['B', '20']}, ({line}) => {
    if (line.startsWith('info ')) infoLines++
  })
  await new Promise(resolve => setTimeout(resolve, 1500))
  const abort = ok(send('protocol_version'), 'protocol_version after analysis')
  const analysed = await analysis
  assert(!analysed.error, 'lz-analyze failed')
  assert.strictEqual(await abort, '2')
  assert(infoLines >= 1, `no info lines (${infoLines})`)
  for (const line of analysed.content.split('\n').filter(l => l.startsWith('info '))) {
    assert(/^info move [A-HJ-T]\d+ visits \d+ winrate \d+ prior \d+ lcb \d+ order \d+ pv/.test(line), line)
  }

  const move = await ok(send('genmove', 'B'), 'genmove')
  assert(/^([A-HJ-T]\d+|pass|resign)$/.test(move), `genmove answered ${move}`)
  await ok(send('undo'), 'undo')
  await engine.stop()
  console.log(`ok: ${infoLines} info lines, genmove ${move}`)
}

main().catch(err => {
  console.error(err)
  process.exit(1)
})
