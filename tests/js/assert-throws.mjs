// The error tests' one check: call throws (or a promise rejects with)
// exactly this class with exactly this message.
import assert from 'node:assert/strict';

export function assertThrowsExactly(call, ErrorClass, message) {
  assert.throws(call, (error) => {
    assert.equal(error.constructor, ErrorClass, `${message}: thrown as ${error.constructor.name} (${error.message})`);
    assert.equal(error.message, message);
    return true;
  });
}

// The same for a promise: it rejects with exactly this class and message.
export async function assertRejectsExactly(promise, ErrorClass, message) {
  await assert.rejects(promise, (error) => {
    assert.equal(
      error.constructor,
      ErrorClass,
      `${message}: rejected with ${error.constructor.name} (${error.message})`,
    );
    assert.equal(error.message, message);
    return true;
  });
}
