export const seen = [];
