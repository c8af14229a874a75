// Runs dynalite's command line (node_modules/dynalite/cli.js, the same
// arguments) in a process that outlives a client aborting a request.
// Dynalite throws a request's "aborted" error (ECONNRESET) from its
// handler, and that ends the whole server (architect/dynalite#183, open):
// one test whose context cancels a request in flight would leave every
// later test of its binary without a table. DynamoDB drops such a
// request and serves on; so does this. Any other uncaught error still
// ends the process, as node would.
'use strict'

process.on('uncaughtException', (err) => {
  if (err && err.code === 'ECONNRESET' && err.message === 'aborted') {
    console.error('dynalite: a client aborted its request; serving on')
    return
  }
  console.error(err)
  process.exit(1)
})

require('dynalite/cli.js')
