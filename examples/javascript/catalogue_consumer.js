#!/usr/bin/env node
// Reads ssdpulse's run catalogue (ssdpulse.runs.v1, one RunStarted per run) from the beginning to the end of every
// partition with kafkajs and @kafkajs/confluent-schema-registry on their defaults (avsc maps an Avro long to a
// JavaScript number and refuses one it cannot hold exactly), and prints one JSON object per run:
// {"partition", "offset", "key", "value"}, the value as the library decodes it. A last line {"count": n} counts the
// runs read. Exits 1 when a record does not decode, naming it. ssdpulse's producers compress with LZ4, which kafkajs
// reads through a codec it is given (it ships GZIP only): lz4js's, a pure-JavaScript LZ4 frame codec.
//
//   node catalogue_consumer.js --bootstrap-servers localhost:9092 --schema-registry-url http://localhost:8081 [--run ID]

'use strict';

const NEEDS = 'this example needs Node.js 18 or later and the packages of its package-lock.json ' +
  '(kafkajs, @kafkajs/confluent-schema-registry, lz4js): run `npm ci` in examples/javascript';

let Kafka, logLevel, CompressionTypes, CompressionCodecs, SchemaRegistry, lz4;
try {
  ({ Kafka, logLevel, CompressionTypes, CompressionCodecs } = require('kafkajs'));
  ({ SchemaRegistry } = require('@kafkajs/confluent-schema-registry'));
  lz4 = require('lz4js');
} catch (e) {
  if (e.code !== 'MODULE_NOT_FOUND') throw e;
  console.error(NEEDS + ' (' + e.message.split('\n')[0] + ')');
  process.exit(2);
}

const RUNS = 'ssdpulse.runs.v1';

// kafkajs's codec interface: a compress from its encoder, a decompress of a record batch's payload
CompressionCodecs[CompressionTypes.LZ4] = () => ({
  compress: async (encoder) => Buffer.from(lz4.compress(encoder.buffer)),
  decompress: async (buffer) => Buffer.from(lz4.decompress(buffer)),
});

function parseArgs(argv) {
  const args = { bootstrapServers: 'localhost:9092', schemaRegistryUrl: 'http://localhost:8081', runs: [],
    timeoutS: 120 };
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    switch (argv[i]) {
      case '--bootstrap-servers': args.bootstrapServers = value; i++; break;
      case '--schema-registry-url': args.schemaRegistryUrl = value; i++; break;
      case '--run': args.runs.push(value); i++; break;
      case '--timeout-s': args.timeoutS = Number(value); i++; break;
      default:
        console.error('unknown argument ' + argv[i] + ' (--bootstrap-servers, --schema-registry-url, --run, ' +
          '--timeout-s)');
        process.exit(2);
    }
  }
  return args;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  // kafkajs logs warnings and errors only, to stderr: stdout holds the records
  const kafka = new Kafka({
    clientId: 'ssdpulse-catalogue-example',
    brokers: args.bootstrapServers.split(','),
    logLevel: logLevel.WARN,
    logCreator: () => ({ namespace, level, log }) => {
      console.error(`kafkajs ${namespace}: ${log.message}`);
    },
  });
  const registry = new SchemaRegistry({ host: args.schemaRegistryUrl });

  // the end of each partition now: the catalogue is read up to there
  const admin = kafka.admin();
  await admin.connect();
  const offsets = await admin.fetchTopicOffsets(RUNS);
  await admin.disconnect();
  const pending = new Map();
  for (const p of offsets) {
    if (BigInt(p.high) > BigInt(p.low)) pending.set(p.partition, BigInt(p.high) - 1n);
  }

  const consumer = kafka.consumer({ groupId: 'ssdpulse-catalogue-' + process.pid + '-' + Date.now() });
  let count = 0;
  let failure = null;
  const done = new Promise((resolve) => {
    if (pending.size === 0) resolve();
    const timer = setTimeout(() => {
      failure = 'timed out after ' + args.timeoutS + ' s with partitions ' + [...pending.keys()].join(', ') +
        ' not read to their end';
      resolve();
    }, args.timeoutS * 1000);
    consumer.connect()
      .then(() => consumer.subscribe({ topic: RUNS, fromBeginning: true }))
      .then(() => consumer.run({
        eachMessage: async ({ partition, message }) => {
          if (failure !== null || !pending.has(partition)) return;
          const key = message.key === null ? null : message.key.toString('utf8');
          if (message.value !== null) {
            let value;
            try {
              value = await registry.decode(message.value);
            } catch (e) {
              failure = `${RUNS} partition ${partition} offset ${message.offset} (run ${key}) does not decode: ` +
                e.message;
              clearTimeout(timer);
              resolve();
              return;
            }
            count++;
            if (args.runs.length === 0 || args.runs.includes(key)) {
              console.log(JSON.stringify({ partition, offset: Number(message.offset), key, value }));
            }
          }
          if (BigInt(message.offset) >= pending.get(partition)) {
            pending.delete(partition);
            if (pending.size === 0) {
              clearTimeout(timer);
              resolve();
            }
          }
        },
      }))
      .catch((e) => {
        failure = e.message;
        clearTimeout(timer);
        resolve();
      });
  });
  await done;
  await consumer.disconnect();
  if (failure !== null) {
    console.error(failure);
    process.exit(1);
  }
  console.log(JSON.stringify({ count }));
}

main().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
