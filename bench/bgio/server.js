// boardgame.io's own Server (Koa lobby API and socket.io transport, in-memory
// storage) for the benchmark game, on 127.0.0.1 and a free port (PORT to
// choose one). Prints `serving on http://127.0.0.1:PORT` when it listens.
const { Server } = require('boardgame.io/server');
const { Bench } = require('./game');

const server = Server({ games: [Bench], origins: ['http://127.0.0.1'] });
// `run` listens on every interface; listen on loopback only.
const listen = server.app.listen;
server.app.listen = (port, cb) => listen.call(server.app, port, '127.0.0.1', cb);
server
  .run(Number(process.env.PORT || 0))
  .then(({ appServer }) => {
    console.log(`serving on http://127.0.0.1:${appServer.address().port}`);
  });
const stop = () => process.exit(0);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
