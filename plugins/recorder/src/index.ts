export { renderPng, renderRgb } from "./screenshot.js"
