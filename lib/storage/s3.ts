import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { Readable } from "node:stream";
import type { Storage } from "./index";

// S3 and compatible stores (MinIO, R2, Ceph): path-style addressing when an endpoint is given.
// Uploads go up in parts as the stream produces them, so memory stays flat.

export function s3Storage(o: { bucket: string; endpoint?: string; region: string; prefix: string }): Storage {
  // The SDK prints a NodeVersionSupportWarning on Node < 22 when a client is created: its releases
  // published after the first week of January 2027 will require Node 22. This project runs on Node 20
  // (package.json engines) and pins @aws-sdk/client-s3 and lib-storage to ~3.1169.0, releases that
  // support Node 20, so the range cannot move to one that drops it: the notice says nothing about this
  // installation. The SDK's own switch, read when the client is created, silences exactly that notice.
  // Lift the pin together with the move to Node 22.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const client = new S3Client({ region: o.region, endpoint: o.endpoint, forcePathStyle: !!o.endpoint });
  const Key = (key: string) => `${o.prefix}${key}`;
  return {
    kind: "s3",
    async put(key, body, contentType) {
      let size = 0;
      body.on("data", (chunk: Buffer) => { size += chunk.length; });
      await new Upload({ client, params: { Bucket: o.bucket, Key: Key(key), Body: body, ContentType: contentType } }).done();
      return { size };
    },
    async get(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: o.bucket, Key: Key(key) }));
        const obj = await client.send(new GetObjectCommand({ Bucket: o.bucket, Key: Key(key) }));
        return { body: obj.Body as Readable, size: Number(head.ContentLength ?? 0) };
      } catch (err) {
        const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        if (status === 404) return null;
        throw err;
      }
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket: o.bucket, Key: Key(key) }));
    },
  };
}
