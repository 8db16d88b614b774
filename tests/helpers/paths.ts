import { tmpdir } from "node:os";
import path from "node:path";

// Folders the integration run shares between its global setup and its test files. Two runs at
// once on one machine give each their own (TEST_STORAGE_DIR, TEST_VISION_DIR, TEST_CATALOG_DB).
export const TEST_STORAGE_DIR = process.env.TEST_STORAGE_DIR ?? path.join(tmpdir(), "pokeprice-test-storage");
/** The identification index of the shared catalogue, built once and kept between runs. */
export const TEST_VISION_DIR = process.env.TEST_VISION_DIR ?? path.join(tmpdir(), "pokeprice-test-vision");
