// The eight methods of a platform's SCORM API object, as each version's
// specification names them, in the same order for both: initialize,
// terminate, get, set, commit, last error, error string, diagnostic. For the
// fake API objects of lms.test.mjs and the recorder the SCORM browser tests
// put in front of the runtime (tests/browser/scorm-support.mjs).
export const SCORM_METHODS = {
  '1.2': [
    'LMSInitialize',
    'LMSFinish',
    'LMSGetValue',
    'LMSSetValue',
    'LMSCommit',
    'LMSGetLastError',
    'LMSGetErrorString',
    'LMSGetDiagnostic',
  ],
  '2004': [
    'Initialize',
    'Terminate',
    'GetValue',
    'SetValue',
    'Commit',
    'GetLastError',
    'GetErrorString',
    'GetDiagnostic',
  ],
};
