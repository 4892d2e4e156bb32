import { parseHttp1, serializeHttp1 } from 'roundtrip/wire';
import { show } from 'roundtrip/playground';

// A request exactly as it crosses the wire: request line, header lines, an empty line, then the body.
// Each line ends with CR LF. Try removing the Host line, or writing "get" instead of "GET".
const wire =
  'POST /todos HTTP/1.1\r\n' +
  'Host: api.example\r\n' +
  'content-type: application/json\r\n' + // field names are case-insensitive
  'Content-Length:    16\r\n' + //           whitespace before the value is not part of it
  '\r\n' +
  '{"title":"milk"}';

show(wire, { as: 'http1' }); // the Messages view labels every byte
const { messages, error } = parseHttp1(wire, { role: 'server' });
if (error) console.error(error.code, error.message);
for (const message of messages) {
  if (message.kind !== 'response' && 'method' in message) {
    console.log(message.method, message.target, `HTTP/${message.version}`);
    for (const { name, value } of message.headers) console.log(`  ${name} = ${JSON.stringify(value)}`);
    console.log('body:', new TextDecoder().decode(message.body));
  }
}

// And back: a response serialized from parts. The reason phrase is advice for humans; clients go by the code.
const response = serializeHttp1({
  version: '1.1',
  status: 201,
  reason: 'Created',
  headers: [
    { name: 'Location', value: '/todos/1' },
    { name: 'Content-Length', value: '0' },
  ],
  body: new Uint8Array(),
});
show(response, { as: 'http1', from: 'server' });
console.log(JSON.stringify(new TextDecoder().decode(response)));
