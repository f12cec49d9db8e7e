// Load generator for boardgame.io's server, the same shape as Tabula's
// (crates/server/examples/load.rs): N matches of four players; `clients`
// concurrent clients (default one per seat, at most 64), each owning every
// `clients`-th (match, seat) pair and sending one move at a time, the next as
// soon as the previous is acknowledged (the mover's own socket receiving the
// update that carries it); `--prefill N` moves at every match before the
// followers connect; `--followers N` spectator sockets per match (default 4)
// whose latency is measured from a move's send to its update; `--pid PID`
// reads the server's CPU (utime + stime) over the measured window and its RSS
// at its end.
//
//   node load.js --url http://127.0.0.1:8000 --tables 100 --seconds 10 --prefill 1000 --pid PID
const fs = require('fs');
const { io } = require('socket.io-client');

const COMMANDS = [
  'fate investor Business Mind 3',
  'fate Cynthia Business Mind 3',
  'fate Kodos Business Mind 3',
  'fate Carlton Repair Mind 3',
];
const SEATS = COMMANDS.length;
const GAME = 'bench';

function parseArgs(argv) {
  const a = { url: 'http://127.0.0.1:8000', tables: 1, seconds: 10, prefill: 0, followers: 4 };
  for (let i = 2; i < argv.length; i += 2) {
    const k = argv[i].replace(/^--/, '');
    a[k] = k === 'url' ? argv[i + 1] : Number(argv[i + 1]);
  }
  if (a.clients === undefined) a.clients = Math.min(a.tables * SEATS, 64);
  return a;
}

function procUsage(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 1).trim().split(/\s+/);
  const ticks = Number(f[11]) + Number(f[12]);
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const rss = Number((status.match(/VmRSS:\s+(\d+)/) || [0, 0])[1]) * 1024;
  return { cpu: ticks / 100, rss };
}

async function post(url, body) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

// A socket in match `matchID` as `playerID` (null: a spectator); resolves
// once synced. `onLog(deltalog)` sees every update's new log entries.
function connect(url, matchID, playerID, credentials, onLog) {
  return new Promise((resolve, reject) => {
    const socket = io(`${url}/${GAME}`, { transports: ['websocket'], forceNew: true });
    const conn = { socket, stateID: 0 };
    socket.on('connect_error', reject);
    socket.on('sync', (_m, info) => {
      conn.stateID = info.state._stateID;
      resolve(conn);
    });
    socket.on('update', (_m, state, deltalog) => {
      conn.stateID = state._stateID;
      onLog(deltalog);
    });
    socket.on('patch', (_m, _prev, stateID, _patch, deltalog) => {
      conn.stateID = stateID;
      onLog(deltalog);
    });
    socket.on('connect', () => socket.emit('sync', matchID, playerID, credentials, SEATS));
  });
}

function entriesOf(deltalog) {
  const out = [];
  for (const e of deltalog || []) {
    const p = e.action && e.action.payload;
    if (p && p.type === 'append' && p.args && p.args[0]) out.push(p.args[0]);
  }
  return out;
}

function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.round((sorted.length - 1) * p))];
}

async function main() {
  const a = parseArgs(process.argv);
  const base = a.url.replace(/\/$/, '');
  // The matches and every seat's socket; acks wait on `pending`.
  const pending = new Map();
  const matches = [];
  for (let t = 0; t < a.tables; t++) {
    const { matchID } = await post(`${base}/games/${GAME}/create`, { numPlayers: SEATS });
    const seats = [];
    for (let s = 0; s < SEATS; s++) {
      const { playerCredentials } = await post(`${base}/games/${GAME}/${matchID}/join`, {
        playerID: String(s),
        playerName: `p${s}`,
      });
      const conn = await connect(base, matchID, String(s), playerCredentials, (log) => {
        for (const e of entriesOf(log)) {
          const done = pending.get(e.id);
          if (done) {
            pending.delete(e.id);
            done();
          }
        }
      });
      seats.push({ conn, credentials: playerCredentials });
    }
    matches.push({ matchID, seats });
  }

  let nextId = 0;
  // One move from seat `s` of match `t`; resolves when acknowledged.
  function move(t, s) {
    const { matchID, seats } = matches[t];
    const { conn, credentials } = seats[s];
    const id = `${t}.${s}.${nextId++}`;
    const entry = { id, t: performance.now(), text: COMMANDS[s] };
    return new Promise((resolve) => {
      pending.set(id, resolve);
      conn.socket.emit(
        'update',
        { type: 'MAKE_MOVE', payload: { type: 'append', args: [entry], playerID: String(s), credentials } },
        conn.stateID,
        matchID,
        String(s),
      );
    });
  }

  // The clients, as Tabula's: a count per pair, or until the deadline.
  async function drive(count, deadline) {
    const pairs = [];
    for (let t = 0; t < a.tables; t++) for (let s = 0; s < SEATS; s++) pairs.push([t, s]);
    const quota = (s) => (count === null ? null : Math.floor(count / SEATS) + (s < count % SEATS ? 1 : 0));
    const lat = [];
    const workers = [];
    for (let c = 0; c < a.clients; c++) {
      const mine = pairs.filter((_, i) => i % a.clients === c).filter(([, s]) => quota(s) !== 0);
      const left = mine.map(([, s]) => quota(s));
      workers.push(
        (async () => {
          let k = 0;
          while (performance.now() < deadline && mine.length > 0) {
            const i = k % mine.length;
            k++;
            const [t, s] = mine[i];
            const t0 = performance.now();
            await move(t, s);
            lat.push(performance.now() - t0);
            if (left[i] !== null && --left[i] === 0) {
              mine.splice(i, 1);
              left.splice(i, 1);
            }
          }
        })(),
      );
    }
    await Promise.all(workers);
    return lat;
  }

  if (a.prefill > 0) {
    const t0 = performance.now();
    const done = await drive(a.prefill, Infinity);
    console.log(`  prefill: ${done.length} moves in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }

  // The followers: spectators, each measuring every new entry's latency.
  const followLat = [];
  let measuring = false;
  const followers = [];
  for (const m of matches) {
    for (let f = 0; f < a.followers; f++) {
      followers.push(
        await connect(base, m.matchID, null, undefined, (log) => {
          if (!measuring) return;
          const now = performance.now();
          for (const e of entriesOf(log)) followLat.push(now - e.t);
        }),
      );
    }
  }

  const before = a.pid ? procUsage(a.pid) : null;
  measuring = true;
  const started = performance.now();
  const lat = await drive(null, started + a.seconds * 1000);
  const elapsed = (performance.now() - started) / 1000;
  const after = a.pid ? procUsage(a.pid) : null;
  await new Promise((r) => setTimeout(r, 500));
  measuring = false;

  lat.sort((x, y) => x - y);
  followLat.sort((x, y) => x - y);
  const f3 = (x) => x.toFixed(3);
  console.log(
    `boardgame.io tables=${a.tables} clients=${a.clients} seconds=${elapsed.toFixed(1)} commands=${lat.length} ` +
      `commands/s=${(lat.length / elapsed).toFixed(0)} p50=${f3(percentile(lat, 0.5))}ms ` +
      `p99=${f3(percentile(lat, 0.99))}ms p99.9=${f3(percentile(lat, 0.999))}ms`,
  );
  console.log(`  followers=${followers.length} unacknowledged=${pending.size}`);
  console.log(
    `  follower latency: samples=${followLat.length} p50=${f3(percentile(followLat, 0.5))}ms ` +
      `p99=${f3(percentile(followLat, 0.99))}ms`,
  );
  if (before && after) {
    const per = lat.length ? ((after.cpu - before.cpu) * 1000) / lat.length : 0;
    console.log(
      `  server: cpu=${(after.cpu - before.cpu).toFixed(2)}s cpu/command=${per.toFixed(3)}ms ` +
        `rss=${(after.rss / 1048576).toFixed(1)}MiB`,
    );
  }
  for (const c of followers) c.socket.close();
  for (const m of matches) for (const s of m.seats) s.conn.socket.close();
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
