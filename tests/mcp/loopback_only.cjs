// SPDX-License-Identifier: BSL-1.0
// Preloaded (node --require) into a server the tests start but do not control, so that it
// listens on 127.0.0.1 only: a listen() given a port and no host gets 127.0.0.1 as its host.
'use strict';
const net = require('node:net');
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
    if (typeof args[0] === 'number' || (typeof args[0] === 'string' && /^\d+$/.test(args[0]))) {
        if (args.length === 1 || typeof args[1] !== 'string') args.splice(1, 0, '127.0.0.1');
    } else if (args[0] && typeof args[0] === 'object' && args[0].port !== undefined && !args[0].host) {
        args[0] = { ...args[0], host: '127.0.0.1' };
    }
    return listen.apply(this, args);
};
