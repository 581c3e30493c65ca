#!/usr/bin/env node
// A `credential_process` for tests: each call hands out the next of the local S3 server's test
// identities, expiring EXPIRES_IN_MS from now, and appends a line to LOG_FILE naming the key it
// gave and the processes it was called from (its parent and their parents: the SDK may run it
// through a shell, and bin/evolution.js may run the CLI again under another node). Usage: rotating-credential-process.js LOG_FILE EXPIRES_IN_MS KEY:SECRET,KEY:SECRET
'use strict';
const { appendFileSync, readFileSync } = require('node:fs');

const [logFile, expiresInMs, identities] = process.argv.slice(2);
const pairs = identities.split(',').map((pair) => pair.split(':'));
let calls = 0;
try {
  calls = readFileSync(logFile, 'utf8').split('\n').filter(Boolean).length;
} catch {
  /* first call */
}
const [accessKeyId, secretAccessKey] = pairs[calls % pairs.length];
const parentOf = (pid) => {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
  } catch {
    return 0;
  }
};
const callers = [process.ppid];
while (callers.length < 5 && callers[callers.length - 1] > 1) callers.push(parentOf(callers[callers.length - 1]));
appendFileSync(logFile, `${JSON.stringify({ accessKeyId, at: Date.now(), callers })}\n`);
process.stdout.write(
  JSON.stringify({ Version: 1, AccessKeyId: accessKeyId, SecretAccessKey: secretAccessKey, Expiration: new Date(Date.now() + Number(expiresInMs)).toISOString() }),
);
