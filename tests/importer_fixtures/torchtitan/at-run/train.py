# A hand-written stand-in for torchtitan's train.py at the commit a report ran (tests only):
# the one line the importer reads, how torchtitan makes the global batch.
def log(job_config, dp_degree, logger):
    logger.info(
        f"with local batch size {job_config.training.batch_size}, "
        f"global batch size {job_config.training.batch_size * dp_degree}, "
    )
