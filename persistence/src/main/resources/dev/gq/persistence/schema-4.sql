-- gq schema version 4, applied on top of version 3 in one transaction with the version bump.
-- What 'gq report' needs of a shared job (--share): what it declared of each card, in MiB
-- (--vram; share_mib) or as one K-th of it (--per-gpu K; share_per_gpu), so that it counts its
-- share of a card, not the whole card. Both null for a job that had its cards to itself. Filled
-- here from the documents; written with every row from now on.
ALTER TABLE jobs ADD COLUMN share_mib INTEGER;
ALTER TABLE jobs ADD COLUMN share_per_gpu INTEGER;
UPDATE jobs SET
  share_mib = json_extract(doc, '$.spec.gpuNeed.vramMiB'),
  share_per_gpu = json_extract(doc, '$.spec.gpuNeed.perGpu')
  WHERE json_valid(doc) AND json_extract(doc, '$.spec.gpuNeed.share') = 1;
