"""The OpenAI-compatible API in the app: the bridge to the controller's queue, the Server switch."""
