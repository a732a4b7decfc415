// Set up before every test file: the in-process servers of the tests log to stderr at "silent", so a
// test that provokes a failure on purpose keeps its log lines to itself (tests that read logs do it
// through a sink, or set a level of their own). CRYPTO_METRICS_TEST_LOG_LEVEL=debug shows them all.
import { isLogLevel, setLogLevel } from "../src/log.js";

const wanted = process.env["CRYPTO_METRICS_TEST_LOG_LEVEL"]?.trim().toLowerCase() ?? "";
setLogLevel(isLogLevel(wanted) ? wanted : "silent");
