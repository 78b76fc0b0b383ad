// The error tests' one check: call throws exactly this class with exactly
// this message.
import assert from 'node:assert/strict';

export function assertThrowsExactly(call, ErrorClass, message) {
  assert.throws(call, (error) => {
    assert.equal(error.constructor, ErrorClass, `${message}: thrown as ${error.constructor.name} (${error.message})`);
    assert.equal(error.message, message);
    return true;
  });
}
