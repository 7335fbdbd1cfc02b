"""The device kinds EagleChat offers — one list for the device selector, the catalog and every command."""

DEVICE_KINDS = ("CPU", "GPU", "NPU")
