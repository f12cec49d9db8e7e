// The game of the benchmark: four players, one move that appends an entry to
// the state's log and passes the turn, every player active at once (a
// Tabula table takes commands from its four seats at once, and its load
// generator sends them so). `ignoreStaleStateID` lets a move made on the
// state before another player's move count, as Tabula takes a command
// without an expected seq.
//
// Every move is kept in boardgame.io's own log of the match (the server's
// storage appends it, as Tabula's journal keeps every row). The state `G`
// keeps the last WINDOW entries of the log (default 20) and the count, so an
// update is of the size of a Tabula seat's view; BGIO_WINDOW=0 keeps every
// entry in `G.log` (the state then grows with the game, and boardgame.io
// sends the whole state to every socket on every move). boardgame.io's
// `deltaState` (JSON patches) is not used: its array diff (rfc6902
// `createPatch`) takes about 1 s for one entry appended to a 100-entry log
// and 127 s at 1,000 on this machine.
const { ActivePlayers } = require('boardgame.io/core');

const WINDOW = Number(process.env.BGIO_WINDOW ?? 20);

const Bench = {
  name: 'bench',
  minPlayers: 4,
  maxPlayers: 4,
  setup: () => ({ count: 0, log: [] }),
  turn: { activePlayers: ActivePlayers.ALL },
  moves: {
    append: {
      move: ({ G, playerID, events }, entry) => {
        G.count += 1;
        G.log.push({ seat: playerID, n: G.count, ...entry });
        if (WINDOW > 0 && G.log.length > WINDOW) G.log.splice(0, G.log.length - WINDOW);
        events.endTurn();
      },
      ignoreStaleStateID: true,
    },
  },
};

module.exports = { Bench };
