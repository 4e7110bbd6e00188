import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError, newRequestId } from '@hireloop/platform';
import { errorResponse } from './errors.js';
import { CSP, hstsHeaderLine } from './security-headers.js';

/**
 * The start of the request line the parser held: the path picks the error's surface. Only its
 * beginning matters, so a line cut short (longer than what is read of it) still names it.
 */
const REQUEST_LINE = /^[A-Z]+ (\/[^\s?]*)/;

/** The error a parser refusal answers with; null for a request that never finished arriving (408, no body). */
function parserError(code: string | undefined): AppError | null {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return null;
    case 'HPE_HEADER_OVERFLOW':
      return new AppError('headers_too_large', 'The request headers and URL together are larger than the server accepts (16 KiB).');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new AppError('payload_too_large', 'The request body\'s chunk extensions are larger than the server accepts.');
    default:
      return new AppError('invalid_json', 'The request could not be read: its request line, headers or framing are malformed.');
  }
}

/**
 * Requests Node's HTTP parser refuses before Express sees them, answered in the surface's shape
 * (PRODUCT.md §3: bad input gets a 4xx with the error envelope), chosen by the request line when
 * the parser still holds it, else the /api/v1 envelope: headers past Node's limit 431
 * `headers_too_large`, chunk extensions past it 413, anything else it cannot read (a malformed
 * request line or header, both Content-Length and Transfer-Encoding) 400. A request that timed
 * out gets 408 with no body. Every answer here carries the headers of every response (baseHeaders).
 */
export function answerParserErrors(server: Server, publicBaseUrl: string): void {
  const hsts = hstsHeaderLine(publicBaseUrl);
  const baseHeaders = (requestId: string) => [...commonHeaders(requestId), ...(hsts ? [hsts] : [])];
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const requestId = newRequestId();
    const error = parserError(err.code);
    if (!error) return void socket.end(['HTTP/1.1 408 Request Timeout', ...baseHeaders(requestId), 'Content-Length: 0', '', ''].join('\r\n'));
    const path = REQUEST_LINE.exec(err.rawPacket?.subarray(0, 8192).toString('latin1') ?? '')?.[1] ?? '/api/v1';
    const { contentType, body } = errorResponse(path, error, requestId);
    socket.end(
      [`HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}`, `Content-Type: ${contentType}`, `Content-Length: ${Buffer.byteLength(body)}`, ...baseHeaders(requestId), '', body].join('\r\n'),
    );
  });
}

/** The default policy (nothing loads, no framing) as a header value, as helmet writes it. */
const DEFAULT_CSP = Object.entries(CSP.default).map(([name, values]) => `${name} ${values.join(' ')}`).join(';');

/**
 * What every response carries (PRODUCT.md §3, §11), also these written to the socket by hand: the
 * request id, nosniff, and for the HTML error pages of /console and /i the default CSP (and HSTS
 * when the public origin is https, added above).
 */
const commonHeaders = (requestId: string) => [
  `X-Request-Id: ${requestId}`,
  'X-Content-Type-Options: nosniff',
  `Content-Security-Policy: ${DEFAULT_CSP}`,
  'X-Frame-Options: DENY',
  'Referrer-Policy: no-referrer',
  'Cache-Control: no-store',
  'Connection: close',
];
