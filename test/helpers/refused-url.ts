/**
 * An API URL whose connections are always refused: nothing can listen on port 0, so a connect
 * fails at once with ECONNREFUSED. A port taken from a server that was then closed is not safe
 * for this: the kernel gives it to the next server started on port 0, perhaps another test
 * file's emulator, which then receives this test's requests and logs them as its own (the
 * bad-input corpus once saw a stray POST, PATCH and DELETE that way).
 */
export const REFUSED_API_URL = 'http://127.0.0.1:0/public/v1';
